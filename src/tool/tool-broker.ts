import type { Operation } from '../instrumentation/operation.ts';
import type { Tool } from './tool.ts';
import type { ToolCaller } from './tool-binding.ts';
import type { ToolCallRequest } from './invoke-tool.ts';
import type { ToolCallResult } from './tool-result.ts';

/**
 * The seam through which code other than the agent loop (code-mode programs,
 * the application) calls a run's tools. It is the run's one tool executor:
 * the same validation, hooks, limits, locks and events as a model's call.
 */
export interface ToolBroker {
  /** The tools a caller may use. */
  list(): Tool[];
  /** Makes one call; counts toward the run's tool-call limit. */
  call(request: ToolCallRequest, options: ToolBrokerCallOptions): Promise<ToolCallResult>;
}

/** Options of {@link ToolBroker.call}. */
export interface ToolBrokerCallOptions {
  /** Who makes the call (recorded on events). */
  caller: ToolCaller;
  /** The tool call that started the caller (e.g. the code-mode `exec` call). */
  parentToolCallId?: string;
  /** The operation the call's `tool` operation nests in (a code-mode program's); the run's agent operation by default. */
  parent?: Operation | undefined;
  /**
   * For a `code` call to a tool that needs approval: `approved` runs it, a
   * result answers it (a denial), and throwing suspends the caller. Without
   * it the call is refused with an error result.
   */
  onApproval?: ((request: ToolCallRequest, tool: Tool) => Promise<'approved' | ToolCallResult> | 'approved' | ToolCallResult) | undefined;
}
