import type { DemoRequest, DemoTurn } from './demo-policy.ts';
import { argumentsFor } from './demo-policy.ts';

/** The planning tool the policy drives (`writeTodos()` from `ghostlight/todos`). */
export const PLANNING_TOOL = 'write_todos';

interface Step {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'completed';
}

interface Plan {
  plan_title: string;
  todos: Step[];
}

const MAX_STEPS = 20;
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'this', 'that', 'from', 'your', 'have', 'about', 'please', 'then', 'whether', 'first', 'finally']);

/**
 * The offline model's planning, when the `write_todos` tool is offered and
 * the request has several steps ("check X, then look up Y, then …"): publish
 * the plan with the first step in progress; for the step in progress, call
 * the tools that fit it best (once); then mark it completed and start the
 * next; when every step is done, answer from what the tools found. The plan
 * is read back from the latest `write_todos` result, so the policy needs no
 * memory of its own. Deterministic: the same request gives the same turns.
 */
export function planTodoTurn(request: DemoRequest): DemoTurn | undefined {
  if (!request.tools.some((tool) => tool.name === PLANNING_TOOL)) return undefined;
  const last = request.toolResults.map((result, index) => ({ result, index })).filter(({ result }) => result.toolName === PLANNING_TOOL && !result.isError).at(-1);
  if (!last) {
    const steps = stepsOf(request.userText);
    if (steps.length < 2) return undefined;
    const todos = steps.map((title, index): Step => ({ id: `step-${index + 1}`, title: shorten(title, 48), status: index === 0 ? 'in_progress' : 'pending' }));
    return write({ plan_title: shorten(`Plan: ${request.userText}`, 80), todos });
  }
  const plan = parsePlan(last.result.content);
  if (!plan) return undefined;
  const current = plan.todos.find((todo) => todo.status === 'in_progress') ?? plan.todos.find((todo) => todo.status === 'pending');
  if (!current) return { text: finalAnswer(plan, request) };
  const workedOn = request.toolResults.slice(last.index + 1).length > 0;
  if (!workedOn) {
    const tools = bestTools(request, current.title);
    if (tools.length > 0) return { toolCalls: tools.map((tool) => ({ toolName: tool.name, input: argumentsFor(tool.inputSchema, current.title) })) };
  }
  const index = plan.todos.indexOf(current);
  const todos = plan.todos.map((todo, position): Step => ({
    ...todo,
    status: position <= index ? 'completed' : position === index + 1 ? 'in_progress' : todo.status,
  }));
  return write({ plan_title: plan.plan_title, todos });
}

function write(plan: Plan): DemoTurn {
  return { toolCalls: [{ toolName: PLANNING_TOOL, input: plan }] };
}

/** The steps of a request: its clauses joined by "then", ";" or sentence breaks. */
function stepsOf(text: string): string[] {
  return text
    .split(/\s*(?:,\s*(?:and\s+)?then\b|;|\bthen\b|\.\s+(?=[A-Z]))\s*/i)
    .map((step) => step.replace(/[.!?\s]+$/, '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
    .filter((step) => step.length > 0)
    .slice(0, MAX_STEPS)
    .map((step) => step.charAt(0).toUpperCase() + step.slice(1));
}

/** The tools (other than the planner) whose words fit the step best; an enum value the step names counts double. */
function bestTools(request: DemoRequest, step: string): DemoRequest['tools'] {
  const words = wordsOf(step);
  const scored = request.tools
    .filter((tool) => tool.name !== PLANNING_TOOL)
    .map((tool) => ({ tool, score: overlap(words, wordsOf(`${tool.name.replaceAll(/[_-]/g, ' ')} ${tool.description}`)) + 2 * overlap(words, wordsOf(enumValues(tool.inputSchema).join(' '))) }))
    .filter((entry) => entry.score > 0);
  const best = Math.max(0, ...scored.map((entry) => entry.score));
  return scored.filter((entry) => entry.score === best).map((entry) => entry.tool);
}

function finalAnswer(plan: Plan, request: DemoRequest): string {
  const findings = request.toolResults
    .filter((result) => result.toolName !== PLANNING_TOOL)
    .map((result) => `- ${result.toolName}${result.isError ? ' (failed)' : ''}: ${result.content.length > 300 ? `${result.content.slice(0, 300)}…` : result.content}`);
  const done = plan.todos.map((todo) => `- [x] ${todo.title}`);
  return [`All ${plan.todos.length} steps of the plan are done (offline demo model):`, ...done, ...(findings.length > 0 ? ['', 'What the tools found:', ...findings] : [])].join('\n');
}

function parsePlan(content: string): Plan | undefined {
  try {
    const value = JSON.parse(content) as Plan;
    return typeof value?.plan_title === 'string' && Array.isArray(value.todos) ? value : undefined;
  } catch {
    return undefined;
  }
}

function enumValues(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const own = Array.isArray((schema as { enum?: unknown }).enum) ? (schema as { enum: unknown[] }).enum.filter((value): value is string => typeof value === 'string') : [];
  return [...own, ...Object.values(schema).flatMap(enumValues)];
}

function wordsOf(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)).map((word) => (word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word)));
}

function overlap(left: Set<string>, right: Set<string>): number {
  let count = 0;
  for (const word of left) if (right.has(word)) count++;
  return count;
}

function shorten(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= max ? single : `${single.slice(0, max - 1).trimEnd()}…`;
}
