import type { EventPayload, GhostlightEvent } from './events.ts';
import { isTerminalEvent } from './events.ts';

/**
 * The append-only event log of one run. Readers iterate from any sequence
 * number and keep receiving events until the terminal one, so a client that
 * reconnects can resume where it left off.
 */
export class EventLog {
  readonly runId: string;
  readonly #events: GhostlightEvent[] = [];
  #waiters: Array<() => void> = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  readonly #now: () => number;

  constructor(runId: string, now: () => number = Date.now) {
    this.runId = runId;
    this.#now = now;
  }

  /** Every event written so far. */
  get events(): readonly GhostlightEvent[] {
    return this.#events;
  }

  /** Whether the terminal event has been written. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Appends an event and wakes readers. Throws after the terminal event. */
  append(payload: EventPayload): GhostlightEvent {
    if (this.#ended) throw new Error(`Event ${payload.type} was written after the run ended`);
    const event = { ...payload, runId: this.runId, sequence: this.#events.length, time: this.#now() } as GhostlightEvent;
    this.#events.push(event);
    if (isTerminalEvent(event)) this.#ended = true;
    this.#wake();
    return event;
  }

  /**
   * Ends the log without a terminal event because the run could not start
   * (bad configuration). Readers receive `error` after the events written so far.
   */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = { error };
    this.#wake();
  }

  /**
   * Reads events from `fromSequence` (default 0) until the terminal event.
   * Stops early, without error, when `signal` aborts.
   */
  async *read(fromSequence = 0, signal?: AbortSignal): AsyncGenerator<GhostlightEvent, void, undefined> {
    let next = Math.max(0, fromSequence);
    while (!signal?.aborted) {
      while (next < this.#events.length) {
        yield this.#events[next++]!;
      }
      if (this.#ended) {
        if (this.#failure) throw this.#failure.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
