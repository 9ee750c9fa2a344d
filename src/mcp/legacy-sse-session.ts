import { ProviderError } from '../error/control-errors.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { raceAbort } from '../util/abort.ts';
import { isPlainObject } from '../util/json.ts';
import { assertOk, parseMessage, sendHttp } from './http-exchange.ts';
import type { HttpSettings } from './http-exchange.ts';
import type { JsonRpcNotification, JsonRpcRequest } from './mcp-protocol.ts';
import { sseEvents } from './sse-events.ts';

interface Pending {
  resolve(message: unknown): void;
  reject(error: unknown): void;
}

/**
 * The deprecated HTTP+SSE transport (protocol 2024-11-05 servers): a long-lived
 * `GET` event stream whose first `endpoint` event names where to `POST`
 * messages; responses arrive on the stream and are matched by id. Used when a
 * server rejects Streamable HTTP's `initialize` with 400, 404 or 405, or when
 * a connection asks for `transport: 'sse'`.
 */
export class LegacySseSession {
  readonly #settings: HttpSettings;
  readonly #controller = new AbortController();
  readonly #pending = new Map<number, Pending>();
  readonly #endpoint: Promise<URL>;
  #failure: unknown;

  constructor(settings: HttpSettings) {
    this.#settings = settings;
    let found: (url: URL) => void = () => undefined;
    let failed: (error: unknown) => void = () => undefined;
    this.#endpoint = new Promise<URL>((resolve, reject) => {
      found = resolve;
      failed = reject;
    });
    this.#endpoint.catch(() => undefined);
    this.#read(found).catch((error: unknown) => {
      this.#failure = error;
      failed(error);
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    });
  }

  /** Posts a request and waits for its response on the event stream. */
  async request(message: JsonRpcRequest, signal: AbortSignal): Promise<unknown> {
    const response = new Promise<unknown>((resolve, reject) => {
      if (this.#failure !== undefined) reject(this.#failure);
      else this.#pending.set(message.id, { resolve, reject });
    });
    response.catch(() => undefined);
    try {
      await this.#post(message, signal);
      return await raceAbort(response, signal);
    } finally {
      this.#pending.delete(message.id);
    }
  }

  /** Posts a notification. */
  async notify(message: JsonRpcNotification, signal: AbortSignal): Promise<void> {
    await this.#post(message, signal);
  }

  /** Closes the event stream; waiting requests fail. */
  close(): void {
    this.#controller.abort();
  }

  async #post(message: JsonRpcRequest | JsonRpcNotification, signal: AbortSignal): Promise<void> {
    const endpoint = await raceAbort(this.#endpoint, signal);
    const response = await sendHttp(this.#settings, endpoint, { method: 'POST', body: JSON.stringify(message), accept: 'application/json', signal });
    await assertOk(response);
    await response.body?.cancel().catch(() => undefined);
  }

  async #read(found: (url: URL) => void): Promise<void> {
    const settings = this.#settings;
    const response = await sendHttp(settings, settings.url, { method: 'GET', accept: 'text/event-stream', signal: this.#controller.signal });
    await assertOk(response);
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProtocolError('MCP SSE endpoint did not return an event stream');
    }
    for await (const event of sseEvents(response.body, settings.maxResponseBytes, { perEvent: true })) {
      if (event.event === 'endpoint') {
        const endpoint = new URL(event.data, settings.url);
        if (endpoint.origin !== settings.url.origin) throw new ProtocolError("MCP SSE endpoint must be on the server's origin");
        found(endpoint);
      } else if (event.event === 'message') {
        const message = parseMessage(event.data);
        const id = isPlainObject(message) ? message.id : undefined;
        const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
        if (pending) {
          this.#pending.delete(id as number);
          pending.resolve(message);
        }
      }
    }
    throw new ProviderError('MCP transport failed: the event stream ended');
  }
}
