import type { EventOf } from './events.ts';

/** A model tool call the log announced but will not report with `tool-stop`. */
export interface PendingModelCall {
  readonly toolCallId: string;
  readonly toolName: string;
}

/**
 * Tracks the model's tool calls that get no `tool-stop` event: loop-control
 * calls (code mode's `exec`, `wait`, `stop`), which report through
 * `program-observe` instead. Encoders use it to give every tool call the
 * model made a result in AG-UI and UI message streams, so a client that
 * keeps the conversation never holds a call without a result.
 */
export class PendingModelCalls {
  readonly #awaiting: PendingModelCall[] = [];

  /** A model tool call was announced (`tool-call-stop`). */
  called(event: EventOf<'tool-call-stop'>): void {
    this.#awaiting.push({ toolCallId: event.toolCallId, toolName: event.toolName });
  }

  /** A tool started (`tool-start`): a model call that will report its own `tool-stop`. */
  started(event: EventOf<'tool-start'>): void {
    if (event.caller !== 'model' || event.parentToolCallId !== undefined) return;
    const index = this.#awaiting.findIndex((call) => call.toolCallId === event.toolCallId);
    if (index >= 0) this.#awaiting.splice(index, 1);
  }

  /** A model call from an earlier run continues in this one (a program resumed after approval): it reports through `program-observe`. */
  continued(toolCallId: string, toolName: string): void {
    this.#awaiting.push({ toolCallId, toolName });
  }

  /** A call now waits for approval (`tool-approval-request`): it gets its result in the run that continues. */
  awaitingApproval(toolCallId: string): void {
    const index = this.#awaiting.findIndex((call) => call.toolCallId === toolCallId);
    if (index >= 0) this.#awaiting.splice(index, 1);
  }

  /** A program observation (`program-observe`): the result of the oldest control call still waiting. */
  observed(): PendingModelCall | undefined {
    return this.#awaiting.shift();
  }

  /** The calls still without a result (at the next model turn or the end of the run); forgets them. */
  drain(): PendingModelCall[] {
    return this.#awaiting.splice(0);
  }
}

/** What a client sees as the result of a control call: the observation, without envelope fields. */
export function observationResult(event: EventOf<'program-observe'>): { status: 'success' | 'error'; value: Record<string, unknown> } {
  const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...observation } = event;
  return { status: event.status === 'error' ? 'error' : 'success', value: observation };
}

/** The text a call that ended without a result gets. */
export const NO_RESULT = 'The tool call ended without a result';
