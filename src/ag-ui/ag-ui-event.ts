/**
 * The AG-UI events Ghostlight writes (protocol 1.0). Each is a JSON object
 * with a `type`; fields the protocol does not name travel in `metadata`, so
 * strict clients never strip or warn about them.
 */
export type AgUiEvent =
  | AgUiRunStarted
  | AgUiRunFinished
  | AgUiRunError
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant'; timestamp?: number }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string; timestamp?: number }
  | { type: 'TEXT_MESSAGE_END'; messageId: string; timestamp?: number }
  | { type: 'REASONING_START'; messageId: string; timestamp?: number }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning'; timestamp?: number }
  | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string; timestamp?: number }
  | { type: 'REASONING_MESSAGE_END'; messageId: string; timestamp?: number }
  | { type: 'REASONING_END'; messageId: string; timestamp?: number }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string; timestamp?: number }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string; timestamp?: number }
  | { type: 'TOOL_CALL_END'; toolCallId: string; timestamp?: number }
  | {
      type: 'TOOL_CALL_RESULT';
      messageId: string;
      toolCallId: string;
      content: string;
      role: 'tool';
      timestamp?: number;
      metadata: { status: 'success' | 'error'; toolName: string };
    }
  | AgUiStep
  | AgUiCustom;

/** `STEP_STARTED` / `STEP_FINISHED`: a step of a composite assembly (`stepName` is the participant). */
export interface AgUiStep {
  type: 'STEP_STARTED' | 'STEP_FINISHED';
  stepName: string;
  timestamp?: number;
  metadata: { stepId: string; assembly: string; assemblyKind: string; step: number; branchId?: string };
}

/** `RUN_STARTED`: the first event of a run. */
export interface AgUiRunStarted {
  type: 'RUN_STARTED';
  threadId: string;
  runId: string;
  timestamp?: number;
  metadata?: Record<string, unknown>;
}

/** `RUN_FINISHED`: a run that did not fail (completed, partial or cancelled). */
export interface AgUiRunFinished {
  type: 'RUN_FINISHED';
  threadId: string;
  runId: string;
  result?: { response: string; output?: unknown };
  outcome?: { type: 'success' } | { type: 'cancelled' } | { type: 'interrupt'; interrupts: AgUiInterrupt[] };
  usage?: AgUiTokenUsage[];
  timestamp?: number;
}

/** One thing an interrupted run waits for (AG-UI interrupts): here, a tool call's approval. */
export interface AgUiInterrupt {
  /** The id a `RunAgentInput.resume` entry answers (`interruptId`): the approval id. */
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  metadata?: Record<string, unknown>;
}

/** `RUN_ERROR`: a failed run; `metadata.cleanupFailed` says whether closing its resources failed too. */
export interface AgUiRunError {
  type: 'RUN_ERROR';
  message: string;
  code?: string;
  usage?: AgUiTokenUsage[];
  timestamp?: number;
  metadata: { cleanupFailed: boolean };
}

/** A `CUSTOM` event; Ghostlight's names start with `ghostlight.`. */
export interface AgUiCustom {
  type: 'CUSTOM';
  name: string;
  value: unknown;
  timestamp?: number;
}

/** AG-UI's token accounting: totals, with cached and reasoning tokens as parts of them. */
export interface AgUiTokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
}
