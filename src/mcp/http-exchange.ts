import type { TraceContext } from '../instrumentation/trace-context.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { abortReason, raceAbort, throwIfAborted } from '../util/abort.ts';
import { McpConnectionError } from './mcp-connection-error.ts';
import { MCP_PROTOCOL_VERSION } from './mcp-protocol.ts';

/** What both HTTP transports need to reach a server. */
export interface HttpSettings {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly sign: ((request: Request) => Request | Promise<Request>) | undefined;
  readonly fetch: typeof fetch;
}

const SESSION_ID_PATTERN = /^[\x21-\x7e]{1,256}$/;

/** Errors thrown by the application's signer: they pass through {@link exchange} untouched. */
const callbackErrors = new WeakSet<object>();

/**
 * Sends one HTTP request with the MCP headers, the caller's headers and the
 * signer applied. Redirects are not followed (credentials stay with the
 * configured server).
 */
export async function sendHttp(
  settings: HttpSettings,
  url: URL,
  init: { method: string; body?: string | undefined; accept: string; sessionId?: string | undefined; signal: AbortSignal; traceContext?: TraceContext | undefined },
): Promise<Response> {
  const headers = new Headers(settings.headers);
  if (!headers.has('accept')) headers.set('accept', init.accept);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  headers.set('mcp-protocol-version', MCP_PROTOCOL_VERSION);
  if (init.sessionId !== undefined) headers.set('mcp-session-id', init.sessionId);
  if (init.traceContext) {
    headers.set('traceparent', init.traceContext.traceparent);
    if (init.traceContext.tracestate) headers.set('tracestate', init.traceContext.tracestate);
  }
  const request = new Request(url, { method: init.method, headers, ...(init.body !== undefined ? { body: init.body } : {}), redirect: 'manual', signal: init.signal });
  const sign = settings.sign;
  let signed = request;
  try {
    if (sign) signed = await sign(request);
  } catch (error) {
    if (typeof error === 'object' && error !== null) callbackErrors.add(error);
    throw error;
  }
  return settings.fetch.call(globalThis, signed, { signal: init.signal });
}

/**
 * Runs one exchange under the caller's signal and the transport's timeout.
 * Cancellation rejects with the run's control error; a timeout or network
 * failure becomes `McpConnectionError` (a `ProviderError` naming the server's origin); Ghostlight
 * errors (protocol violations) and the signer's own errors pass through.
 */
export async function exchange<T>(
  signal: AbortSignal | undefined,
  timeoutMs: number,
  operation: (signal: AbortSignal) => Promise<T>,
  server = 'the MCP server',
): Promise<T> {
  throwIfAborted(signal);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Raced, so a timeout or cancellation ends the wait even when the I/O underneath ignores the signal.
    return await raceAbort(operation(controller.signal), controller.signal);
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (typeof error === 'object' && error !== null && callbackErrors.has(error)) throw error;
    if (timedOut) throw new McpConnectionError(`MCP transport failed: ${server} did not answer within ${timeoutMs} ms (TimeoutError)`, { cause: error });
    if (GhostlightError.isInstance(error)) throw error;
    throw new McpConnectionError(`MCP transport failed: ${server} could not be reached (${errorName(error)})`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The session id a response assigns, checked; undefined when it assigns none. */
export function sessionIdOf(response: Response): string | undefined {
  const value = response.headers.get('mcp-session-id');
  if (value === null) return undefined;
  if (!SESSION_ID_PATTERN.test(value)) throw new ProtocolError('MCP server returned an invalid session ID');
  return value;
}

/** Throws `ProtocolError("MCP request failed with HTTP N")` for a non-2xx response (its body discarded). */
export async function assertOk(response: Response): Promise<void> {
  if (response.ok) return;
  await response.body?.cancel().catch(() => undefined);
  throw new ProtocolError(`MCP request failed with HTTP ${response.status}`);
}

/** Reads a body as text, refusing more than `maxBytes` (by `Content-Length` first, then while reading). */
export async function readLimitedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProtocolError(`MCP response exceeded ${maxBytes} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new ProtocolError(`MCP response exceeded ${maxBytes} bytes`);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

/** Parses a JSON message; malformed text is a `ProtocolError`. */
export function parseMessage(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProtocolError(`MCP returned invalid JSON: ${(error as Error).message}`);
  }
}

function errorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.length > 0 ? name : 'Error';
}
