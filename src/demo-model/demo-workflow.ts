import { argumentsFor } from './demo-policy.ts';
import type { DemoRequest, DemoTurn } from './demo-policy.ts';

type Schema = Record<string, unknown>;
interface PlannerTool {
  readonly id: string;
  readonly inputSchema: Schema;
  readonly outputSchema?: Schema;
}

/**
 * How the offline demo model answers a workflow planner (`planWorkflow` in `ghostlight/workflows`): it reads
 * the workflow's input schema and tools from the request and plans a small DAG, the first tool first and the
 * others after it, at once. Each argument comes from the workflow input when a property of that name exists,
 * else from the first step's output, else from the schema. The workflow output names each later step's
 * output. Returns nothing when the request is not a planner's.
 */
export function planWorkflowTurn(request: DemoRequest): DemoTurn | undefined {
  if (!request.userText.startsWith('Workflow: ')) return undefined;
  const wantsJson = isPlanSchema(request.responseSchema);
  const planTool = typeof request.toolChoice === 'object' ? request.tools.find((tool) => tool.name === (request.toolChoice as { toolName: string }).toolName) : undefined;
  if (!wantsJson && !planTool) return undefined;
  const inputSchema = jsonLine(request.userText, 'Input schema: ') as Schema | undefined;
  const tools = (jsonLine(request.userText, 'Tools: ') ?? []) as PlannerTool[];
  const plan = JSON.stringify(demoPlan(inputSchema ?? {}, tools));
  return planTool ? { toolCalls: [{ toolName: planTool.name, input: { plan } }] } : { text: JSON.stringify({ plan }) };
}

function demoPlan(inputSchema: Schema, tools: readonly PlannerTool[]): Record<string, unknown> {
  const [first, ...rest] = tools;
  if (!first) return { version: 'workflow-plan-v1', steps: [] };
  const inputNames = new Set(Object.keys((inputSchema.properties ?? {}) as Schema));
  const firstId = stepId(first.id);
  const firstOutputs = new Set(Object.keys(((first.outputSchema ?? {}).properties ?? {}) as Schema));
  const argument = (name: string, schema: Schema, upstream: boolean) =>
    inputNames.has(name) ? `{{ input.${name} }}` : upstream && firstOutputs.has(name) ? `{{ steps.${firstId}.output.${name} }}` : argumentsFor(schema, '');
  const inputFor = (tool: PlannerTool, upstream: boolean) => {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
    return Object.fromEntries(Object.entries(properties).filter(([name]) => required.has(name)).map(([name, schema]) => [name, argument(name, schema, upstream)]));
  };
  const steps = [
    { id: firstId, uses: 'tool.call', with: { tool: first.id }, input: inputFor(first, false) },
    ...rest.map((tool) => ({ id: stepId(tool.id), uses: 'tool.call', needs: [firstId], with: { tool: tool.id }, input: inputFor(tool, true) })),
  ];
  const sinks = rest.length > 0 ? steps.slice(1) : steps;
  return { version: 'workflow-plan-v1', steps, output: Object.fromEntries(sinks.map((step) => [step.id, `{{ steps.${step.id}.output }}`])) };
}

function stepId(toolId: string): string {
  return toolId.replace(/[^a-zA-Z0-9_-]/g, '-').slice(0, 64);
}

function isPlanSchema(schema: Schema | undefined): boolean {
  const properties = schema?.properties as Schema | undefined;
  return properties !== undefined && Object.keys(properties).length === 1 && 'plan' in properties;
}

function jsonLine(text: string, prefix: string): unknown {
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line.slice(prefix.length));
  } catch {
    return undefined;
  }
}
