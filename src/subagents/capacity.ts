import { abortReason } from '../util/abort.ts';

/** A counting semaphore whose waits give up when a signal aborts. Waiters are served in arrival order. */
export class Capacity {
  #available: number;
  readonly #waiting: Array<{ grant: () => void }> = [];

  constructor(size: number) {
    this.#available = size;
  }

  /** Waits for a slot; resolves with the function that gives it back (call it once). */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.#available > 0) {
      this.#available--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#available++;
    };
  }
}

/** Wakes everyone waiting for a change; waits end on a change, a timeout or an abort. */
export class ChangeSignal {
  #waiters = new Set<() => void>();

  /** Wakes every current waiter. */
  notify(): void {
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next change or after `ms`; rejects with the abort reason if `signal` aborts first. */
  next(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiters.delete(done);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        reject(abortReason(signal));
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(done);
    });
  }
}
