import type { ModelMessage } from 'ai';
import type { ErrorInfo, GhostlightEvent, PendingApproval, RunOutcome } from '../events/events.ts';
import type { Invocation, RunState } from '../tool/tool-binding.ts';
import type { Step } from './step.ts';
import type { Usage } from './usage.ts';

/** The fields a finished run is made of; `TOutput` is the structured result's type (text when there is none). */
export interface RunRecord<TOutput = unknown> {
  readonly runId: string;
  readonly sessionId: string;
  /** The agent's name. */
  readonly agent: string;
  readonly invocation: Invocation;
  /** `completed`, `failed` (error set), `partial` (deadline), `cancelled`, or `waiting` (for approvals). */
  readonly outcome: RunOutcome;
  /** The caller-facing text: the answer, the partial answer, '' when cancelled, or a safe message when failed. */
  readonly response: string;
  /**
   * The run's output when it completed: the checked structured value when the agent has a result schema (typed
   * from a valibot or Standard Schema), otherwise the response text. `undefined` for any other outcome.
   */
  readonly output: TOutput | undefined;
  readonly usage: Usage;
  /** The original error of a failed, partial or cancelled run (for the application; never sent to clients). */
  readonly error: unknown;
  /** The client-safe description of the error. */
  readonly errorInfo: ErrorInfo | undefined;
  /** Whether closing the run's resources failed. */
  readonly cleanupFailed: boolean;
  /** The calls a `waiting` run waits for approval of (empty otherwise); answer them with `agent.resume`. */
  readonly pendingApprovals: readonly PendingApproval[];
  readonly steps: readonly Step[];
  /** The whole conversation (history, input and everything the run added), without instructions. */
  readonly messages: readonly ModelMessage[];
  /** The messages this run added (its input included). */
  readonly newMessages: readonly ModelMessage[];
  /** The run's working state when it ended. */
  readonly state: RunState;
  /** The run's complete event log. */
  readonly events: readonly GhostlightEvent[];
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Epoch milliseconds. */
  readonly endedAt: number;
}

// The class carries the record's fields (declaration merging) and adds behaviour.
export interface Run<TOutput = unknown> extends RunRecord<TOutput> {}

/**
 * A finished run: its outcome, the caller-facing response, usage, steps,
 * messages and the complete event log. `agent.ask` returns one for every
 * execution, including failed, partial and cancelled ones.
 */
export class Run<TOutput = unknown> {
  constructor(record: RunRecord<TOutput>) {
    Object.assign(this, record);
  }

  /** Whether the run completed. */
  get completed(): boolean {
    return this.outcome === 'completed';
  }

  /** A JSON summary safe to send to clients: no original errors, no application metadata. */
  toJSON(): RunSummary {
    return {
      runId: this.runId,
      sessionId: this.sessionId,
      agent: this.agent,
      outcome: this.outcome,
      response: this.response,
      output: this.output,
      usage: this.usage,
      ...(this.errorInfo ? { error: this.errorInfo } : {}),
      ...(this.cleanupFailed ? { cleanupFailed: true } : {}),
      ...(this.outcome === 'waiting' ? { approvals: this.pendingApprovals } : {}),
      steps: this.steps.map((step) => ({
        turn: step.turn,
        text: step.text,
        finishReason: step.finishReason,
        usage: step.usage,
        toolCalls: step.toolResults.map((result) => ({
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          input: result.input,
          status: result.status,
          content: result.content,
        })),
      })),
      durationMs: this.endedAt - this.startedAt,
    };
  }
}

/** The JSON form of a run (`run.toJSON()`), as the HTTP API returns it. */
export interface RunSummary {
  runId: string;
  sessionId: string;
  agent: string;
  outcome: RunOutcome;
  response: string;
  output: unknown;
  usage: Usage;
  error?: ErrorInfo;
  cleanupFailed?: boolean;
  /** A `waiting` run's pending approvals. */
  approvals?: readonly PendingApproval[];
  steps: Array<{
    turn: number;
    text: string;
    finishReason: string;
    usage: Usage;
    toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown; status: 'success' | 'error'; content: string }>;
  }>;
  durationMs: number;
}
