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
/** Events written within this many milliseconds are stored in one write (and at most 100 rows a write). */
const FLUSH_MS = 10;
const FLUSH_ROWS = 100;
/** Keys per `put` (the storage API's limit). */
const PUT_KEYS = 128;

/**
 * The event log of the run an object is running, as JSON lines: events are
 * written to storage as they come, batched (those within 10 ms, at most 100
 * rows, in one write; the terminal event at once), and kept in memory for the
 * readers this instance serves. Readers anywhere else, or after a restart, read the stored rows.
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
  #count = 0;
  #unpublished: Array<{ line: string; sequence: number }> = [];
  /** Whether the terminal event was appended; `#ended` once it is published. */
  #terminal = false;
  #ended = false;
  #waiters: Array<() => void> = [];
  /** The storage writes still in flight (awaited before the run is marked finished). */
  #writes: Promise<unknown>[] = [];
  #pending: Record<string, string> = {};
  #pendingRows = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(storage: RunDurableObjectStorage, limits: RunLogLimits = {}) {
    this.#storage = storage;
    this.#maxEvents = limits.maxEvents ?? 20_000;
    this.#maxChars = limits.maxLogChars ?? 16_000_000;
  }

  /** Whether the terminal event was appended. */
  get ended(): boolean {
    return this.#terminal;
  }

  /** Stores and publishes an event; false (and not stored) when the log is full and the event is not terminal. */
  append(event: GhostlightEvent): boolean {
    if (this.#terminal) return false;
    const line = JSON.stringify(event);
    const terminal = isTerminalEvent(event);
    if (!terminal && (this.#count >= this.#maxEvents - 1 || this.#chars + line.length > this.#maxChars)) return false;
    this.#chars += line.length;
    this.#count++;
    this.#unpublished.push({ line, sequence: event.sequence });
    const rows = rowsOf(EVENT_PREFIX, event.sequence, line);
    Object.assign(this.#pending, rows);
    this.#pendingRows += Object.keys(rows).length;
    if (terminal) this.#terminal = true;
    if (terminal || this.#pendingRows >= FLUSH_ROWS) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), FLUSH_MS);
    return true;
  }

  /** Waits until every event appended so far is stored. */
  async flushed(): Promise<void> {
    this.#flush();
    const writes = this.#writes;
    this.#writes = [];
    await Promise.all(writes);
  }

  /** The JSON lines from sequence `from`, each chunk the lines available at once joined by newlines, live until the terminal event or until `signal` aborts. */
  async *read(from: number, signal: AbortSignal): AsyncGenerator<string> {
    // Sequences only skip where events were dropped, so sequence >= index.
    let index = Math.min(Math.max(0, from), this.#lines.length);
    while (index > 0 && this.#sequences[index - 1]! >= from) index--;
    while (!signal.aborted) {
      const chunk: string[] = [];
      for (; index < this.#lines.length; index++) if (this.#sequences[index]! >= from) chunk.push(this.#lines[index]!);
      if (chunk.length > 0) {
        yield chunk.join('\n');
        continue; // lines may have come while the reader held the chunk
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  /**
   * Writes the pending rows, then publishes their lines to readers: a reader never sees an event that was not
   * written (a Durable Object's output gate also holds its answer until the write is stored), so the sequence a
   * reader resumes from is never beyond the stored log, even when the object is lost right after.
   */
  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pendingRows === 0) return;
    const keys = Object.keys(this.#pending);
    for (let start = 0; start < keys.length; start += PUT_KEYS) {
      const write = this.#storage.put(Object.fromEntries(keys.slice(start, start + PUT_KEYS).map((key) => [key, this.#pending[key]])));
      write.catch(() => undefined); // awaited (and its failure seen) in flushed()
      this.#writes.push(write);
    }
    this.#pending = {};
    this.#pendingRows = 0;
    for (const { line, sequence } of this.#unpublished) {
      this.#lines.push(line);
      this.#sequences.push(sequence);
    }
    this.#unpublished = [];
    if (this.#terminal) this.#ended = true;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
