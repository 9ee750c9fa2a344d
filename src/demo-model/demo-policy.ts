import { planCodeModeTurn } from './demo-code-mode.ts';
import { planStructuredTurn } from './demo-structured.ts';
import { PLANNING_TOOL, planTodoTurn } from './demo-todos.ts';
import { planSubagentTurn } from './demo-subagents.ts';
import { planWorkflowTurn } from './demo-workflow.ts';

/** What the offline demo model sees on each turn. */
export interface DemoRequest {
  /** The text of the latest user message. */
  userText: string;
  /** The system instructions. */
  instructions: string;
  /** The tools offered this turn. */
  tools: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  /** Tool results received since the latest user message. */
  toolResults: ReadonlyArray<{ toolName: string; content: string; isError: boolean }>;
  /** How the request lets the model choose tools: `required`, one named tool, or free (undefined). */
  toolChoice?: 'required' | { toolName: string } | undefined;
  /** The JSON Schema the answer must match, when the request asks for JSON. */
  responseSchema?: Record<string, unknown>;
}

/** What the offline demo model does on a turn: write text, call tools, or both. */
export interface DemoTurn {
  text?: string;
  toolCalls?: ReadonlyArray<{ toolName: string; input: unknown }>;
}

const MAX_CALLS = 3;
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'this', 'that', 'from', 'your', 'have', 'about', 'please', 'tool', 'tools', 'file', 'files']);

/**
 * The built-in policy (after the structured-result, subagent and code-mode
 * plans, which apply when their tools are offered): answer from tool results when there are some; else call
 * the tools whose name or description shares a word with the user's message;
 * else reply plainly. With the `write_todos` tool and a request of several
 * steps it plans first and works through the plan step by step.
 */
export function planDemoTurn(request: DemoRequest): DemoTurn {
  const workflowPlan = planWorkflowTurn(request);
  if (workflowPlan) return workflowPlan;
  const structured = planStructuredTurn(request);
  if (structured) return structured;
  const delegated = planSubagentTurn(request);
  if (delegated) return delegated;
  const program = planCodeModeTurn(request);
  if (program) return program;
  const planned = planTodoTurn(request);
  if (planned) return planned;
  if (request.toolResults.length > 0) return { text: answerFromResults(request) };
  const words = significantWords(request.userText);
  const chosen = request.tools
    .filter((tool) => tool.name !== PLANNING_TOOL)
    .map((tool) => ({ tool, score: overlap(words, significantWords(`${tool.name.replaceAll(/[_-]/g, ' ')} ${tool.description} ${enumWords(tool.inputSchema)}`)) }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, MAX_CALLS)
    .map((entry) => entry.tool);
  if (chosen.length > 0) {
    return { toolCalls: chosen.map((tool) => ({ toolName: tool.name, input: argumentsFor(tool.inputSchema, request.userText) })) };
  }
  const offered = request.tools.length > 0 ? ` I can use: ${request.tools.map((tool) => tool.name).join(', ')}.` : '';
  return { text: `I am Ghostlight's offline demo model, so I can only echo and call tools. You said: "${request.userText}".${offered}` };
}

/** The enum values anywhere in a schema, as words: a question naming one points at the tool. */
function enumWords(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const own = Array.isArray((schema as { enum?: unknown }).enum) ? (schema as { enum: unknown[] }).enum.filter((value) => typeof value === 'string') : [];
  const nested = Object.values(schema).map(enumWords);
  return [...own, ...nested].join(' ');
}

function answerFromResults(request: DemoRequest): string {
  const lines = request.toolResults.map((result) => {
    const content = result.content.length > 400 ? `${result.content.slice(0, 400)}…` : result.content;
    return `- ${result.toolName}${result.isError ? ' (failed)' : ''}: ${content}`;
  });
  return `Here is what I found (offline demo model):\n${lines.join('\n')}`;
}

function significantWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)).map(stem));
}

function stem(word: string): string {
  return word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word;
}

function overlap(left: Set<string>, right: Set<string>): number {
  let count = 0;
  for (const word of left) if (right.has(word)) count++;
  return count;
}

/** Builds arguments that satisfy `schema`, preferring values mentioned in `text`. */
export function argumentsFor(schema: Record<string, unknown>, text: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const lower = text.toLowerCase();
    return schema.enum.find((value) => typeof value === 'string' && lower.includes(value.toLowerCase())) ?? schema.enum[0];
  }
  if ('const' in schema) return schema.const;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) {
        if (!required.has(key) && !Array.isArray(property.enum)) continue;
        result[key] = property.type === 'boolean' ? mentions(text, key) : argumentsFor(property, text);
      }
      return result;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number': {
      const found = text.match(/-?\d+(\.\d+)?/);
      const value = found ? Number(found[0]) : typeof schema.minimum === 'number' ? schema.minimum : 1;
      return type === 'integer' ? Math.trunc(value) : value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      const quoted = text.match(/"([^"]+)"|'([^']+)'/);
      if (quoted) return quoted[1] ?? quoted[2];
      if (typeof schema.pattern === 'string') return matchingWord(schema.pattern, text) ?? text;
      return text;
    }
  }
}

/** The first word or path-like token of `text` that the schema's pattern accepts. */
function matchingWord(pattern: string, text: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  return (text.match(/[\w./-]+/g) ?? []).map((word) => word.replace(/[.,;:!?]+$/, '')).find((word) => regex.test(word));
}

/** Whether the text mentions a property name's words (`urgent`, `needs_refund`). */
function mentions(text: string, key: string): boolean {
  const lower = text.toLowerCase();
  return key.toLowerCase().split(/[_-]/).some((word) => word.length >= 3 && lower.includes(word));
}
