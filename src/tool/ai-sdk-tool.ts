import type { Tool as AiSdkTool } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import { isPlainObject } from '../util/json.ts';
import { markTool } from './tool.ts';
import type { NeedsApproval, Tool } from './tool.ts';
import { assertToolDescription, assertToolName } from './tool-name.ts';
import { ToolError } from './tool-error.ts';

/** A record of AI SDK `tool()` values keyed by name. */
export type AiSdkToolSet = Record<string, AiSdkTool<any, any>>;

/** Whether `value` looks like an AI SDK `tool()` value. */
export function isAiSdkTool(value: unknown): value is AiSdkTool<any, any> {
  return isPlainObject(value) && 'inputSchema' in value;
}

/** Whether `value` is a record of AI SDK tools keyed by name. */
export function isAiSdkToolSet(value: unknown): value is AiSdkToolSet {
  if (!isPlainObject(value)) return false;
  const entries = Object.values(value);
  return entries.length > 0 && entries.every(isAiSdkTool);
}

const adapted = new WeakMap<object, Map<string, Tool>>();

/**
 * Adapts an AI SDK `tool()` value to a Ghostlight tool named `name`. The
 * adapted tool runs through the same executor as every other tool: our
 * validation messages, limits, hooks and events. Adapting the same value under
 * the same name twice returns the same tool.
 */
export function fromAiSdkTool(name: string, source: AiSdkTool<any, any>): Tool {
  const cached = adapted.get(source)?.get(name);
  if (cached) return cached;
  assertToolName(name);
  assertToolDescription(source.description);
  const what = `The input schema of tool ${name}`;
  const execute = source.execute;
  const tool = markTool({
    name,
    description: source.description,
    input: resolveSchema(source.inputSchema as object, what),
    output: source.outputSchema === undefined
      ? undefined
      : resolveSchema(source.outputSchema as object, `The output schema of tool ${name}`),
    exclusive: false,
    availableIf: undefined,
    close: undefined,
    ...(source.needsApproval ? { needsApproval: aiSdkApproval(source.needsApproval) } : {}),
    async execute(input, binding) {
      if (typeof execute !== 'function') throw new ToolError(`Tool ${name} cannot be executed here`);
      const output = await execute(input, {
        toolCallId: binding.toolCallId,
        messages: [],
        abortSignal: binding.signal,
        context: binding.run.invocation.context as never,
      });
      return isAsyncIterable(output) ? lastOf(output) : output;
    },
  });
  let byName = adapted.get(source);
  if (!byName) adapted.set(source, (byName = new Map()));
  byName.set(name, tool);
  return tool;
}

/** Adapts a whole record of AI SDK tools. */
export function fromAiSdkTools(tools: AiSdkToolSet): Tool[] {
  if (!isPlainObject(tools)) throw new ConfigurationError('Expected a record of AI SDK tools keyed by name');
  return Object.entries(tools).map(([name, source]) => fromAiSdkTool(name, source));
}

/** AI SDK's `needsApproval` (a boolean, or a function of the input and call options) as a Ghostlight one. */
function aiSdkApproval(needsApproval: NonNullable<AiSdkTool<any, any>['needsApproval']>): NeedsApproval {
  if (typeof needsApproval !== 'function') return needsApproval === true;
  return async (input, binding) =>
    (await needsApproval(input, { toolCallId: binding.toolCallId, messages: [], context: binding.run.invocation.context as never } as never)) === true;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function lastOf(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}
