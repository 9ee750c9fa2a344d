import { CancelledError } from '../error/control-errors.ts';
import type { SessionRelease } from './session-store.ts';

/**
 * Per-key FIFO mutex: callers with the same key run one at a time, other
 * keys never wait. Entries disappear when nobody holds or waits for them.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Waits for `key`, then returns the release function. Rejects with `CancelledError` if `signal` aborts first. */
  async acquire(key: string, signal?: AbortSignal): Promise<SessionRelease> {
    if (signal?.aborted) throw new CancelledError({ cause: signal.reason });
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => held);
    this.#tails.set(key, tail);
    const done = () => {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
    if (!signal) {
      await previous;
      return once(done);
    }
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        previous,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(new CancelledError({ cause: signal.reason }));
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } catch (error) {
      // Give up our place: whoever queued behind us waits for `previous` instead.
      previous.then(done, done);
      throw error;
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
    return once(done);
  }

  /** How many keys are held or awaited (for tests and leak checks). */
  get size(): number {
    return this.#tails.size;
  }
}

function once(fn: () => void): SessionRelease {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}
