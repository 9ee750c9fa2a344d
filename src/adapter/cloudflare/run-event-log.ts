import type { GhostlightEvent } from '../../events/events.ts';
import { isTerminalEvent } from '../../events/events.ts';
import { rowsOf } from './run-storage.ts';
import type { RunDurableObjectStorage } from './run-storage.ts';

/** The bounds of one run's stored event log. */
export interface RunLogLimits {
  /** Most events stored for one run (default 20,000); the terminal event is always stored. */
  readonly maxEvents?: number | undefined;
  /** Most characters of event JSON stored for one run (default 16,000,000, about 16 MB of ASCII); the terminal event is always stored. */
  readonly maxLogChars?: number | undefined;
}

/** The prefix of the event rows. */
export const EVENT_PREFIX = 'e:';

/**
 * The event log of the run an object is running, as JSON lines: each event is
 * written to storage as it comes (without awaiting, so Durable Objects
 * coalesce the writes) and kept in memory for the readers this instance
 * serves. Readers anywhere else, or after a restart, read the stored rows.
 * At a limit the log stops storing events but the terminal one, and `append`
 * answers false so the object can cancel the run.
 */
export class RunEventLog {
  readonly #storage: RunDurableObjectStorage;
  readonly #maxEvents: number;
  readonly #maxChars: number;
  readonly #lines: string[] = [];
  readonly #sequences: number[] = [];
  #chars = 0;
  #ended = false;
  #waiters: Array<() => void> = [];
  /** The storage writes still in flight (awaited before the run is marked finished). */
  #writes: Promise<unknown>[] = [];

  constructor(storage: RunDurableObjectStorage, limits: RunLogLimits = {}) {
    this.#storage = storage;
    this.#maxEvents = limits.maxEvents ?? 20_000;
    this.#maxChars = limits.maxLogChars ?? 16_000_000;
  }

  /** Whether the terminal event was appended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Stores and publishes an event; false (and not stored) when the log is full and the event is not terminal. */
  append(event: GhostlightEvent): boolean {
    if (this.#ended) return false;
    const line = JSON.stringify(event);
    const terminal = isTerminalEvent(event);
    if (!terminal && (this.#lines.length >= this.#maxEvents - 1 || this.#chars + line.length > this.#maxChars)) return false;
    this.#chars += line.length;
    this.#lines.push(line);
    this.#sequences.push(event.sequence);
    this.#writes.push(this.#storage.put(rowsOf(EVENT_PREFIX, event.sequence, line)));
    if (terminal) this.#ended = true;
    this.#wake();
    return true;
  }

  /** Waits until every event appended so far is stored. */
  async flushed(): Promise<void> {
    const writes = this.#writes;
    this.#writes = [];
    await Promise.all(writes);
  }

  /** The JSON lines from sequence `from`, live until the terminal event or until `signal` aborts. */
  async *read(from: number, signal: AbortSignal): AsyncGenerator<string> {
    // Sequences only skip where events were dropped, so sequence >= index.
    let index = Math.min(Math.max(0, from), this.#lines.length);
    while (index > 0 && this.#sequences[index - 1]! >= from) index--;
    while (!signal.aborted) {
      for (; index < this.#lines.length; index++) if (this.#sequences[index]! >= from) yield this.#lines[index]!;
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
