import { CancelledError, DeadlineExceededError } from '../error/control-errors.ts';

/**
 * Throws the control error for an aborted signal: the signal's reason when it
 * is already a Ghostlight control error, otherwise a `CancelledError`.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** The control error that explains why `signal` aborted. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (DeadlineExceededError.isInstance(reason) || CancelledError.isInstance(reason)) return reason;
  return new CancelledError({ cause: reason });
}

/**
 * Races `promise` against `signal`: rejects with the abort reason as soon as
 * the signal aborts, even if the promise never settles (cooperative work keeps
 * running; the caller simply stops waiting for it).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Whether `error` is an abort raised by a fetch/stream (a DOMException named AbortError). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'AbortError' ||
      (error as { name?: unknown }).name === 'TimeoutError')
  );
}
