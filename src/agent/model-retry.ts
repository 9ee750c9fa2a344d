import { APICallError } from '@ai-sdk/provider';
import { DeadlineExceededError } from '../error/control-errors.ts';
import { abortReason } from '../util/abort.ts';
import { errorClassOf, httpStatusOf, isRetryableModelError } from './provider-errors.ts';

/** When a failed provider call is retried (LittleGhost's `model_retry` rules). */
export interface ModelRetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries: number;
  /** The first delay; each retry doubles it (default 1,000 ms). */
  readonly initialDelayMs: number;
  /** The longest delay between attempts (default 16,000 ms). */
  readonly maxDelayMs: number;
}

/** What one retry looks like, for the `model-retry` event. */
export interface ModelRetryNotice {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the next attempt waits, in milliseconds. */
  readonly delayMs: number;
  /** The failure's error name (`AI_APICallError`, …). */
  readonly errorClass: string;
  /** The provider's HTTP status, when it answered. */
  readonly httpStatus: number | undefined;
}

/** Options of {@link withModelRetries}. */
export interface ModelRetryOptions {
  /** Aborts the waits (cancellation, the deadline): the wait ends with the abort's reason. */
  readonly signal: AbortSignal;
  readonly policy?: Partial<ModelRetryPolicy> | undefined;
  /** The run's absolute deadline (epoch ms): no wait outlives it. */
  readonly deadline?: number | undefined;
  /** The clock the deadline is read with (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /** Called before each wait, with the failure. */
  readonly onRetry?: ((notice: ModelRetryNotice, error: unknown) => void) | undefined;
}

export const DEFAULT_RETRY_POLICY: ModelRetryPolicy = Object.freeze({ maxRetries: 2, initialDelayMs: 1_000, maxDelayMs: 16_000 });

export { isRetryableModelError };

/**
 * Runs `call` (one whole attempt: the request and reading its stream),
 * retrying retryable failures with exponential backoff (doubling from
 * `initialDelayMs`, capped at `maxDelayMs`), or after the delay the provider
 * asks for (`retry-after-ms`, `retry-after` in seconds or as a date) when that
 * is longer. No wait outlives the deadline: the delay is cut to the time left,
 * and with none left the run's `DeadlineExceededError` is thrown at once. When
 * the signal aborts (cancellation, the deadline) the wait ends with its reason.
 */
export async function withModelRetries<T>(call: (attempt: number) => PromiseLike<T>, options: ModelRetryOptions): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const now = options.now ?? Date.now;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (options.signal.aborted || attempt > policy.maxRetries || !isRetryableModelError(error)) throw error;
      const backoff = Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
      let delayMs = Math.max(backoff, Math.min(requestedDelay(error, now) ?? 0, policy.maxDelayMs * 4));
      if (options.deadline !== undefined) {
        const remaining = options.deadline - now();
        if (remaining <= 0) throw new DeadlineExceededError();
        delayMs = Math.min(delayMs, remaining);
      }
      options.onRetry?.({ attempt, delayMs, errorClass: errorClassOf(error), httpStatus: httpStatusOf(error) }, error);
      await sleep(delayMs, options.signal);
    }
  }
}

/** The delay a provider asked for in its response headers, in milliseconds. */
function requestedDelay(error: unknown, now: () => number): number | undefined {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now()) : undefined;
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
