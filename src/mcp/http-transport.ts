import { ProtocolError } from '../error/protocol-error.ts';
import { isPlainObject } from '../util/json.ts';
import { assertOk, exchange, parseMessage, readLimitedText, sendHttp, sessionIdOf } from './http-exchange.ts';
import type { HttpSettings } from './http-exchange.ts';
import { LegacySseSession } from './legacy-sse-session.ts';
import type { JsonRpcNotification, JsonRpcRequest } from './mcp-protocol.ts';
import type { McpTransport, McpTransportOptions } from './mcp-transport.ts';
import { sseEvents } from './sse-events.ts';

/** Which HTTP transport to speak: Streamable HTTP, the legacy HTTP+SSE transport, or Streamable HTTP with SSE fallback. */
export type HttpTransportMode = 'streamable-http' | 'sse' | 'auto';

const FALLBACK_STATUSES = new Set([400, 404, 405]);
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * MCP over HTTP with `fetch`: Streamable HTTP (JSON or SSE responses, the
 * session id kept and checked, responses capped at `maxResponseBytes`), and
 * the legacy HTTP+SSE transport as a fallback. Closing sends the session's
 * `DELETE` (best effort).
 */
export class HttpMcpTransport implements McpTransport {
  readonly version = 'mcp-transport-v1' as const;
  readonly #settings: HttpSettings;
  readonly #mode: HttpTransportMode;
  #sessionId: string | undefined;
  #legacy: LegacySseSession | undefined;
  #answered = false;
  #closed = false;

  constructor(settings: HttpSettings, mode: HttpTransportMode = 'auto') {
    this.#settings = settings;
    this.#mode = mode;
    if (mode === 'sse') this.#legacy = new LegacySseSession(settings);
  }

  /** The server as errors name it: its origin only. */
  get #server(): string {
    return `the MCP server at ${new URL(this.#settings.url).origin}`;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  request(message: JsonRpcRequest, options: McpTransportOptions): Promise<unknown> {
    return exchange(options.signal, this.#settings.timeoutMs, async (signal) => {
      if (this.#legacy) return this.#legacy.request(message, signal);
      const response = await this.#post(message, signal, options);
      if (!response.ok && this.#shouldFallBack(message, response.status)) {
        await response.body?.cancel().catch(() => undefined);
        this.#legacy = new LegacySseSession(this.#settings);
        return this.#legacy.request(message, signal);
      }
      await assertOk(response);
      this.#answered = true;
      return this.#responseTo(response, message.id);
    }, this.#server);
  }

  notify(message: JsonRpcNotification, options: McpTransportOptions): Promise<void> {
    return exchange(options.signal, this.#settings.timeoutMs, async (signal) => {
      if (this.#legacy) return this.#legacy.notify(message, signal);
      const response = await this.#post(message, signal, options);
      await assertOk(response);
      await response.body?.cancel().catch(() => undefined);
    }, this.#server);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#legacy?.close();
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return;
    await exchange(undefined, Math.min(CLOSE_TIMEOUT_MS, this.#settings.timeoutMs), async (signal) => {
      const response = await sendHttp(this.#settings, this.#settings.url, { method: 'DELETE', accept: 'application/json', sessionId, signal });
      await response.body?.cancel().catch(() => undefined);
    }).catch(() => undefined);
  }

  async #post(message: JsonRpcRequest | JsonRpcNotification, signal: AbortSignal, options: McpTransportOptions): Promise<Response> {
    const response = await sendHttp(this.#settings, this.#settings.url, {
      method: 'POST',
      body: JSON.stringify(message),
      accept: 'application/json, text/event-stream',
      sessionId: this.#sessionId,
      signal,
      traceContext: options.traceContext,
    });
    const sessionId = sessionIdOf(response);
    if (sessionId !== undefined) this.#sessionId = sessionId;
    return response;
  }

  #shouldFallBack(message: JsonRpcRequest, status: number): boolean {
    return this.#mode === 'auto' && !this.#answered && message.method === 'initialize' && FALLBACK_STATUSES.has(status);
  }

  async #responseTo(response: Response, id: number): Promise<unknown> {
    const max = this.#settings.maxResponseBytes;
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body) {
      for await (const event of sseEvents(response.body, max)) {
        if (event.event !== 'message' || event.data === '' || event.data === '[DONE]') continue;
        const message = parseMessage(event.data);
        if (isPlainObject(message) && message.id === id && ('result' in message || 'error' in message)) return message;
      }
      throw new ProtocolError('MCP event stream contained no response');
    }
    const text = await readLimitedText(response, max);
    return text.trim() === '' ? undefined : parseMessage(text);
  }
}
