import { persistableMessages } from '../../session/persistable-messages.ts';
import type { DurableObjectStateLike } from './durable-object-types.ts';

const MESSAGE_PREFIX = 'message:';
const DELETE_BATCH = 128;

interface Meta {
  actorId: string | null;
  count: number;
  state: unknown;
  metadata: unknown;
  hasSnapshot: boolean;
}

interface Lease {
  token: string;
  expiresAt: number;
}

/**
 * The Durable Object behind `DurableObjectSessionStore`: one object per
 * session id. Messages are append-only rows (`message:000000000042`), so no
 * stored value grows with the conversation; a small `meta` row holds the
 * owner, the count, the state and the metadata. Every request reads, checks
 * and writes without other I/O in between, so Durable Objects' input gates
 * make each one atomic. Locks are short leases (polled by the store), so a
 * Worker that dies while holding one blocks the session only until the
 * lease expires.
 *
 * Export it from your Worker and bind it (see `wrangler.toml`):
 * `export { SessionDurableObject } from 'ghostlight/cloudflare';`
 */
export class SessionDurableObject {
  readonly #state: DurableObjectStateLike;
  #lease: Lease | undefined;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#state = state;
  }

  /** Answers the store's requests: `POST /load`, `/append`, `/replace`, `/lock`, `/unlock`. */
  async fetch(request: Request): Promise<Response> {
    const operation = new URL(request.url).pathname.slice(1);
    const body = (await request.json()) as Record<string, unknown>;
    const actorId = typeof body.actorId === 'string' ? body.actorId : null;
    try {
      switch (operation) {
        case 'load':
          return json(await this.#load(actorId));
        case 'append':
          await this.#append(actorId, body);
          return json({ ok: true });
        case 'replace':
          await this.#replace(actorId, body);
          return json({ ok: true });
        case 'lock':
          return json(this.#lock(Number(body.leaseMs) || 300_000));
        case 'unlock':
          if (this.#lease?.token === body.token) this.#lease = undefined;
          return json({ ok: true });
        default:
          return json({ error: { code: 'unknown_operation', message: `Unknown operation ${operation}` } }, 404);
      }
    } catch (error) {
      if (error instanceof StoreRefusal) return json({ error: { code: error.code, message: error.message } }, 409);
      throw error;
    }
  }

  /** The session's meta row, refused for another actor. Reading never claims: the first write does. */
  async #meta(actorId: string | null): Promise<Meta | undefined> {
    const meta = await this.#state.storage.get<Meta>('meta');
    if (meta && meta.actorId !== actorId) throw new StoreRefusal('actor', 'Session actor does not match');
    return meta;
  }

  async #load(actorId: string | null): Promise<unknown> {
    const meta = await this.#meta(actorId);
    if (!meta?.hasSnapshot) return { snapshot: null };
    const rows = await this.#state.storage.list({ prefix: MESSAGE_PREFIX });
    return { snapshot: { messages: [...rows.values()], state: meta.state, metadata: meta.metadata } };
  }

  async #append(actorId: string | null, body: Record<string, unknown>): Promise<void> {
    const meta = (await this.#meta(actorId)) ?? { actorId, count: 0, state: {}, metadata: {}, hasSnapshot: false };
    if (meta.count !== body.expectedCount) throw new StoreRefusal('conflict', 'Session changed while it was being updated');
    const messages = persistableMessages(Array.isArray(body.messages) ? body.messages : []);
    const entries: Record<string, unknown> = {};
    messages.forEach((message, index) => (entries[rowKey(meta.count + index)] = message));
    entries.meta = { actorId, count: meta.count + messages.length, state: body.state ?? {}, metadata: body.metadata ?? {}, hasSnapshot: true } satisfies Meta;
    await this.#state.storage.put(entries);
  }

  async #replace(actorId: string | null, body: Record<string, unknown>): Promise<void> {
    await this.#meta(actorId);
    const old = [...(await this.#state.storage.list({ prefix: MESSAGE_PREFIX })).keys()];
    for (let index = 0; index < old.length; index += DELETE_BATCH) await this.#state.storage.delete(old.slice(index, index + DELETE_BATCH));
    const messages = persistableMessages(Array.isArray(body.messages) ? body.messages : []);
    const entries: Record<string, unknown> = {};
    messages.forEach((message, index) => (entries[rowKey(index)] = message));
    entries.meta = { actorId, count: messages.length, state: body.state ?? {}, metadata: body.metadata ?? {}, hasSnapshot: true } satisfies Meta;
    await this.#state.storage.put(entries);
  }

  #lock(leaseMs: number): { token?: string; retryAfterMs?: number } {
    const now = Date.now();
    if (this.#lease && this.#lease.expiresAt > now) return { retryAfterMs: Math.min(500, this.#lease.expiresAt - now) };
    this.#lease = { token: crypto.randomUUID(), expiresAt: now + leaseMs };
    return { token: this.#lease.token };
  }
}

class StoreRefusal extends Error {
  readonly code: 'actor' | 'conflict';
  constructor(code: 'actor' | 'conflict', message: string) {
    super(message);
    this.code = code;
  }
}

function rowKey(index: number): string {
  return `${MESSAGE_PREFIX}${String(index).padStart(12, '0')}`;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
}
