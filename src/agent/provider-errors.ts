import { APICallError } from '@ai-sdk/provider';
import { ContextWindowOverflowError } from '../error/context-window-overflow-error.ts';
import { ProviderError } from '../error/control-errors.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';

/**
 * What the providers say when a request does not fit the context window, in
 * their documented error bodies (lower case): OpenAI chat and Responses
 * (`context_length_exceeded`, "maximum context length", "exceeds the context
 * window"), Anthropic ("prompt is too long", "exceed context limit",
 * `request_too_large`), OpenAI-compatible servers (vLLM, Groq, DeepSeek,
 * Mistral, OpenRouter: "maximum context length"; xAI: "maximum prompt length")
 * and Gemini ("exceeds the maximum number of tokens").
 */
const OVERFLOW_MARKERS = [
  'context_length_exceeded',
  'context window',
  'context_window',
  'maximum context length',
  'max context length',
  'maximum prompt length',
  'prompt is too long',
  'input is too long',
  'too many input tokens',
  'exceed context limit',
  'exceeds context limit',
  'request_too_large',
  'exceeds the maximum number of tokens',
  'reduce the length of the messages',
];

/** Stream error types and codes that are transient (LittleGhost's rule for errors inside a stream). */
const TRANSIENT_STREAM_ERRORS = new Set([
  'provider_overloaded',
  'provider_unavailable',
  'rate_limit_exceeded',
  'server',
  'server_error',
  'timeout',
  'overloaded_error',
  'api_error',
  'rate_limit_error',
]);

/**
 * Whether a provider failure says the request exceeded the model's context
 * window: an HTTP error (never a 429, whose "too many tokens" is a rate
 * limit) or an error inside the stream whose body, message, type or code
 * carries one of the providers' documented markers.
 */
export function isContextOverflow(error: unknown): boolean {
  if (ContextWindowOverflowError.isInstance(error)) return true;
  if (typeof error !== 'object' || error === null || GhostlightError.isInstance(error)) return false;
  if (httpStatusOf(error) === 429) return false;
  const text = errorTexts(error).join(' ').toLowerCase();
  return OVERFLOW_MARKERS.some((marker) => text.includes(marker));
}

/**
 * Whether a failed model call may succeed when repeated: a call that never got
 * an answer (no status, or a network failure while reading the stream), an
 * answer 408, 409, 429 or 5xx (unless the provider package marks that answer
 * as not retryable), or an error inside the stream that the provider marks
 * retryable or names as transient (overloaded, rate limited, server error,
 * timeout). Anything else fails the same way again.
 */
export function isRetryableModelError(error: unknown): boolean {
  if (GhostlightError.isInstance(error) || isContextOverflow(error)) return false;
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) return true;
    // AI SDK's default `isRetryable` follows the status; `false` on a retryable status is the provider's own
    // verdict (OpenAI's insufficient_quota inside a stream), which stands.
    return isRetryableStatus(error.statusCode) && error.isRetryable !== false;
  }
  // A dropped connection while reading the body (undici, browsers and workerd raise TypeError).
  if (error instanceof TypeError) return true;
  if (!isPlainErrorObject(error)) return false;
  if ((error as { isRetryable?: unknown }).isRetryable === true) return true;
  const status = httpStatusOf(error);
  if (status !== undefined) return isRetryableStatus(status);
  const kinds = [(error as { type?: unknown }).type, (error as { code?: unknown }).code].map((value) => String(value ?? '').toLowerCase());
  return kinds.some((kind) => TRANSIENT_STREAM_ERRORS.has(kind));
}

function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The HTTP status of a provider failure, when it has one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && Number.isInteger(status)) return status;
  const code = (error as { code?: unknown }).code;
  const numeric = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  return numeric !== undefined && numeric >= 400 && numeric < 600 ? numeric : undefined;
}

/** The name of a failure for events (`AI_APICallError`, `ProviderStreamError`, `TypeError`). */
export function errorClassOf(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (typeof name === 'string' && name.length > 0) return name;
  return isPlainErrorObject(error) ? 'ProviderStreamError' : 'Error';
}

/**
 * The error a failed provider call gives the run: Ghostlight's own errors as
 * they are, a context overflow as `ContextWindowOverflowError`, anything else
 * as `ProviderError` (the original on `cause`, the status kept).
 */
export function toProviderError(error: unknown): unknown {
  if (GhostlightError.isInstance(error)) return error;
  const statusCode = httpStatusOf(error);
  const status = statusCode !== undefined ? { statusCode } : {};
  if (isContextOverflow(error)) return new ContextWindowOverflowError({ cause: error, ...status });
  const message = typeof (error as { message?: unknown } | undefined)?.message === 'string' ? (error as { message: string }).message : String(error);
  return new ProviderError(message, { cause: error, ...status });
}

function isPlainErrorObject(error: unknown): boolean {
  return typeof error === 'object' && error !== null && !(error instanceof Error) && typeof (error as { message?: unknown }).message === 'string';
}

function errorTexts(error: object): string[] {
  const texts: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3 || value === null || value === undefined) return;
    if (typeof value === 'string') texts.push(value.length > 4_000 ? value.slice(0, 4_000) : value);
    else if (typeof value === 'object') {
      for (const key of ['message', 'type', 'code', 'responseBody', 'error', 'data']) {
        const field = (value as Record<string, unknown>)[key];
        if (field !== undefined) visit(field, depth + 1);
      }
    }
  };
  visit(error, 0);
  return texts;
}
