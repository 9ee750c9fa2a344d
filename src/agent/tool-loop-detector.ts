import { ConfigurationError } from '../error/configuration-error.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { canonicalJson } from '../util/json.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { cancel, replace } from './hooks.ts';
import type { AgentHooks } from './hooks.ts';

const toolLoopMarker = errorMarker('ToolLoopError');

/** The model kept calling one tool with identical arguments and getting identical results. */
export class ToolLoopError extends ProtocolError {
  readonly [toolLoopMarker] = true;
  override readonly name = 'ToolLoopError';

  /** Whether `error` is a ToolLoopError. */
  static override isInstance = markerGuard<ToolLoopError>(toolLoopMarker);
}

/** Options of tool-loop detection. */
export interface ToolLoopOptions {
  /** The repeat count that adds a warning to the result (default 3, at least 2). */
  warningAt?: number;
  /** The repeat count that is not executed and stops the run (default 5, above `warningAt`). */
  terminateAt?: number;
  /** Tool names never tracked. */
  except?: readonly string[];
}

const WARNING = 'Repeated tool call detected. Change the approach or arguments before calling this tool again.';
const FINAL_WARNING =
  'Final repeated tool call warning. Calling this tool again with identical arguments and result will stop the run.';

/**
 * Watches one run for a tool called again and again with identical arguments
 * and identical results. The `warningAt`-th such call gets a warning, the one
 * before `terminateAt` a final warning, and the `terminateAt`-th is not
 * executed: the next model turn fails the run with `ToolLoopError`. A changed
 * result resets the count; identical calls running in parallel count once.
 */
export function createToolLoopHooks(
  options: ToolLoopOptions,
  controlTools: ReadonlySet<string>,
  expectedRepeats: ReadonlyArray<(call: ToolCallRequest, result: ToolCallResult) => boolean> = [],
): AgentHooks {
  const warningAt = options.warningAt ?? 3;
  const terminateAt = options.terminateAt ?? 5;
  if (!Number.isInteger(warningAt) || warningAt < 2) throw new ConfigurationError('warningAt must be at least 2');
  if (!Number.isInteger(terminateAt) || terminateAt <= warningAt) {
    throw new ConfigurationError('terminateAt must be greater than warningAt');
  }
  const except = new Set(options.except ?? []);
  const repeats = new Map<string, { result: string; count: number }>();
  const inflight = new Map<string, { key: string; advances: boolean }>();
  let termination: string | undefined;

  return {
    beforeModel() {
      if (termination !== undefined) throw new ToolLoopError(termination);
    },
    beforeTool({ toolCall, binding }) {
      if (controlTools.has(toolCall.toolName) || except.has(toolCall.toolName)) return;
      const key = `${toolCall.toolName}\u0000${canonicalJson(toolCall.input)}`;
      const repeat = repeats.get(key);
      if (repeat && repeat.count >= terminateAt - 1) {
        termination ??= `Stopped after detecting a repeated tool-call loop in ${JSON.stringify(toolCall.toolName)}.`;
        binding.operation?.emit('tool_loop', { toolName: toolCall.toolName, repeats: repeat.count + 1, action: 'terminate' });
      }
      if (termination !== undefined) return cancel(termination);
      const advances = ![...inflight.values()].some((call) => call.key === key);
      inflight.set(toolCall.toolCallId, { key, advances });
      return undefined;
    },
    afterTool({ toolCall, result, binding }) {
      const call = inflight.get(toolCall.toolCallId);
      inflight.delete(toolCall.toolCallId);
      if (!call?.advances) return undefined;
      if (expectedRepeats.some((expected) => expected(toolCall, result))) {
        repeats.delete(call.key);
        return undefined;
      }
      const digest = `${result.status}\u0000${result.content}`;
      const previous = repeats.get(call.key);
      const count = previous && previous.result === digest ? previous.count + 1 : 1;
      repeats.set(call.key, { result: digest, count });
      if (count !== warningAt && count !== terminateAt - 1) return undefined;
      const warning = count === warningAt ? WARNING : FINAL_WARNING;
      binding.operation?.emit('tool_loop', { toolName: toolCall.toolName, repeats: count, action: count === warningAt ? 'warn' : 'final_warning' });
      return replace({ ...result, content: `${warning}\n\n${result.content}` });
    },
  };
}
