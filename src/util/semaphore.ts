/**
 * Limits how many async tasks run at once. `run` waits for a free slot, runs
 * the task and releases the slot whatever happens. Waiters are served in
 * arrival order. A semaphore of size 1 is a mutex.
 */
export class Semaphore {
  readonly #size: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('Semaphore size must be a positive integer');
    this.#size = size;
  }

  /** How many tasks hold a slot right now. */
  get active(): number {
    return this.#active;
  }

  /** Runs `task` once a slot is free. */
  async run<T>(task: () => Promise<T> | T): Promise<T> {
    await this.#acquire();
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> | void {
    if (this.#active < this.#size) {
      this.#active++;
      return;
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }
}
