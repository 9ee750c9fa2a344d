import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const useAfterDisposeMarker = errorMarker('UseAfterDisposeError');

/** Something was used after it was disposed or closed. */
export class UseAfterDisposeError extends GhostlightError {
  readonly [useAfterDisposeMarker] = true;
  override readonly name = 'UseAfterDisposeError';

  constructor(what: string) {
    super({ message: `${what} was used after it was disposed` });
  }

  /** Whether `error` is a UseAfterDisposeError. */
  static override isInstance = markerGuard<UseAfterDisposeError>(useAfterDisposeMarker);
}

/** A cleanup step: a function, or anything with `close`, `dispose` or `Symbol.asyncDispose`. */
export type Cleanup =
  | (() => unknown)
  | { close(): unknown }
  | { dispose(): unknown }
  | { [Symbol.asyncDispose](): PromiseLike<void> }
  | { [Symbol.dispose](): void };

/**
 * Owns resources and closes them in reverse order of registration.
 *
 * `close()` runs every cleanup even when some fail, and returns the list of
 * failures instead of throwing, so the owner decides how to report them (a
 * Run turns them into a `CleanupError`). Closing twice is a no-op.
 *
 * @example
 * await using scope = new AsyncScope();
 * const workspace = scope.own(await openWorkspace());
 */
export class AsyncScope implements AsyncDisposable {
  #cleanups: Array<() => unknown> = [];
  #closed = false;

  /** Whether the scope still accepts and holds resources. */
  get alive(): boolean {
    return !this.#closed;
  }

  /** Registers `resource` for cleanup and returns it unchanged. */
  own<T extends Cleanup>(resource: T): T {
    this.defer(toCleanupFunction(resource));
    return resource;
  }

  /** Registers a cleanup function. */
  defer(cleanup: () => unknown): void {
    if (this.#closed) throw new UseAfterDisposeError('AsyncScope');
    this.#cleanups.push(cleanup);
  }

  /** Runs every cleanup in reverse order; returns the failures (empty when all succeeded). */
  async close(): Promise<unknown[]> {
    if (this.#closed) return [];
    this.#closed = true;
    const failures: unknown[] = [];
    const cleanups = this.#cleanups;
    this.#cleanups = [];
    for (let index = cleanups.length - 1; index >= 0; index--) {
      try {
        await cleanups[index]!();
      } catch (error) {
        failures.push(error);
      }
    }
    return failures;
  }

  /** Closes the scope; throws the first failure if any cleanup failed. */
  async [Symbol.asyncDispose](): Promise<void> {
    const failures = await this.close();
    if (failures.length > 0) throw failures[0];
  }
}

function toCleanupFunction(resource: Cleanup): () => unknown {
  if (typeof resource === 'function') return resource;
  const target = resource as Record<PropertyKey, unknown>;
  if (typeof target[Symbol.asyncDispose] === 'function') {
    return () => (target[Symbol.asyncDispose] as () => unknown).call(resource);
  }
  if (typeof target.close === 'function') return () => (target.close as () => unknown).call(resource);
  if (typeof target.dispose === 'function') return () => (target.dispose as () => unknown).call(resource);
  if (typeof target[Symbol.dispose] === 'function') {
    return () => (target[Symbol.dispose] as () => unknown).call(resource);
  }
  throw new TypeError('AsyncScope.own needs a function or an object with close, dispose or Symbol.asyncDispose');
}
