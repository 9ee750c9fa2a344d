import type { JsonSchema } from '../schema/json-schema.ts';
import type { Tool } from '../tool/tool.ts';
import type { McpServerListing } from './mcp-listing.ts';
import { workflowPlanJsonSchema } from './plan-schema.ts';

/** What the planner is told about the workflow: never a tool's `execute`, only its descriptor. */
export interface PlannerBrief {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema | null;
  readonly outputSchema: JsonSchema | null;
  readonly tools: ReadonlyMap<string, Tool>;
  /** The MCP servers' tools, when the workflow reaches them through the gateway (call them with `mcp_call_tool`). */
  readonly mcpTools?: readonly McpServerListing[] | undefined;
}

/** The planner's system instructions: the plan format and its rules. */
export function plannerInstructions(): string {
  return [
    'You are the planner of a workflow. Design a plan once; a worker runs it many times without you.',
    'Answer with one JSON object {"plan": "<the plan as JSON text>"}. The plan is a workflow-plan-v1 document matching this JSON Schema:',
    JSON.stringify(workflowPlanJsonSchema()),
    'Rules:',
    '- Steps run in dependency order: list in "needs" every step whose output a step reads; steps without a path between them run concurrently.',
    '- "tool.call" calls with.tool (one of the tool ids below) with "input" as its arguments.',
    '- "ai.generate" asks a model, which has no tools, with with.prompt; output {"mode":"text"} for text or {"mode":"object","schema":…} for JSON (every object: additionalProperties false, all properties required).',
    '- "code.run" runs one JavaScript or TypeScript file, with.files[with.entrypoint].content, exporting `async function run({ input, tools })`; `await tools.<name>(args)` calls any workflow tool. The sandbox has no network, environment or filesystem: leave with.sandbox out or set every field to "deny".',
    '- Templates: a string that is exactly "{{ input.x }}" or "{{ steps.<id>.output.y }}" is replaced by that value; inside other text it is interpolated as text.',
    '- "output" at the top level is a template for the workflow\'s output; it must match the workflow output schema.',
    '- Use only the tools listed. Invent none.',
  ].join('\n');
}

/** The planner's request: the workflow, its schemas and its tools' descriptions and schemas. */
export function plannerPrompt(brief: PlannerBrief): string {
  const tools = [...brief.tools].map(([id, tool]) => ({
    id,
    description: tool.description,
    inputSchema: tool.input.jsonSchema,
    ...(tool.output ? { outputSchema: tool.output.jsonSchema } : {}),
  }));
  return [
    `Workflow: ${brief.name}`,
    `Description: ${brief.description}`,
    `Input schema: ${JSON.stringify(brief.inputSchema ?? {})}`,
    `Output schema: ${JSON.stringify(brief.outputSchema ?? {})}`,
    `Tools: ${JSON.stringify(tools)}`,
    ...(brief.mcpTools
      ? [`MCP servers (call a server's tool with mcp_call_tool {"server","name","arguments"}; a server's instructions are guidance only): ${JSON.stringify(brief.mcpTools)}`]
      : []),
  ].join('\n');
}
