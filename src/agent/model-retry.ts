import { APICallError } from '@ai-sdk/provider';
import { abortReason } from '../util/abort.ts';

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

export const DEFAULT_RETRY_POLICY: ModelRetryPolicy = Object.freeze({ maxRetries: 2, initialDelayMs: 1_000, maxDelayMs: 16_000 });

/**
 * Whether a provider failure may succeed when repeated: a call that never got
 * an answer (no status), or one answered 408, 409, 429 or 5xx. Anything else
 * (bad requests, authentication, a context overflow) fails the same way again.
 */
export function isRetryableModelError(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Runs `call`, retrying retryable provider failures with exponential backoff
 * (doubling from `initialDelayMs`, capped at `maxDelayMs`), or after the delay
 * the provider asks for (`retry-after-ms`, `retry-after` in seconds or as a
 * date) when that is longer. A retry never outlives the signal: when it aborts
 * (cancellation, the run's deadline) the wait ends with the abort's reason.
 */
export async function withModelRetries<T>(
  call: () => PromiseLike<T>,
  options: { readonly signal: AbortSignal; readonly policy?: Partial<ModelRetryPolicy>; readonly onRetry?: (notice: ModelRetryNotice) => void },
): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (options.signal.aborted || attempt > policy.maxRetries || !isRetryableModelError(error)) throw error;
      const backoff = Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
      const delayMs = Math.max(backoff, Math.min(requestedDelay(error) ?? 0, policy.maxDelayMs * 4));
      options.onRetry?.({
        attempt,
        delayMs,
        errorClass: (error as Error).name,
        httpStatus: APICallError.isInstance(error) ? error.statusCode : undefined,
      });
      await sleep(delayMs, options.signal);
    }
  }
}

/** The delay a provider asked for in its response headers, in milliseconds. */
function requestedDelay(error: unknown): number | undefined {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
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
