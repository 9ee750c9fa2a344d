import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const httpMarker = errorMarker('HttpError');

/**
 * An error with an HTTP status, sent to the client as
 * `{"error": {"code", "message"}}`. Throw one from `auth` to refuse a
 * request with a status of your choice (e.g. 403).
 */
export class HttpError extends GhostlightError {
  readonly [httpMarker] = true;
  override readonly name = 'HttpError';
  /** The HTTP status, 4xx or 5xx. */
  readonly status: number;
  /** A stable, machine-readable code, e.g. `body_too_large`. */
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super({ message });
    this.status = status;
    this.code = code;
  }

  /** Whether `error` is an HttpError. */
  static override isInstance = markerGuard<HttpError>(httpMarker);
}

/** The JSON error response the app sends. */
export function errorResponse(status: number, code: string, message: string, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...Object.fromEntries(new Headers(headers)) },
  });
}
