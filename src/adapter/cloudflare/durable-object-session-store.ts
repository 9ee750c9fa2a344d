import { CancelledError } from '../../error/control-errors.ts';
import { ProtocolError } from '../../error/protocol-error.ts';
import { SessionActorError, SessionStoreError } from '../../session/session-errors.ts';
import { sessionJson } from '../../session/session-json.ts';
import type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from '../../session/session-store.ts';
import type { DurableObjectNamespaceLike } from './durable-object-types.ts';

/** Options of {@link DurableObjectSessionStore}. */
export interface DurableObjectSessionStoreOptions {
  /** How long a run may hold a session before another may take it over (default 5 minutes). */
  readonly leaseMs?: number;
}

/**
 * Sessions in Durable Objects (`SessionDurableObject`), one object per
 * session id: durable across restarts and deploys, serialised across every
 * isolate (a lease per session), each message its own append-only row.
 *
 * @example
 * // wrangler.toml: [[durable_objects.bindings]] name = "SESSIONS", class_name = "SessionDurableObject"
 * const sessions = new DurableObjectSessionStore(env.SESSIONS);
 * const app = createAgentApp({ agents, auth, sessions });
 */
export class DurableObjectSessionStore implements SessionStore {
  readonly version = 'session-store-v1' as const;
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #leaseMs: number;

  constructor(namespace: DurableObjectNamespaceLike, options: DurableObjectSessionStoreOptions = {}) {
    this.#namespace = namespace;
    this.#leaseMs = options.leaseMs ?? 300_000;
  }

  async load(id: string, { actorId }: SessionAccess): Promise<SessionSnapshot | undefined> {
    const { snapshot } = (await this.#call(id, 'load', { actorId })) as { snapshot: SessionSnapshot | null };
    return snapshot ?? undefined;
  }

  async append(id: string, update: SessionAppend & SessionAccess): Promise<void> {
    await this.#call(id, 'append', sessionJson({ ...update }));
  }

  async replace(id: string, snapshot: SessionSnapshot & SessionAccess): Promise<void> {
    await this.#call(id, 'replace', sessionJson({ ...snapshot }));
  }

  async lock(id: string, access: SessionAccess & { signal?: AbortSignal | undefined }): Promise<SessionRelease> {
    let backoff = 20;
    for (;;) {
      if (access.signal?.aborted) throw new CancelledError({ cause: access.signal.reason });
      const answer = (await this.#call(id, 'lock', { actorId: access.actorId, leaseMs: this.#leaseMs })) as { token?: string; retryAfterMs?: number };
      if (answer.token) {
        const token = answer.token;
        return async () => {
          await this.#call(id, 'unlock', { actorId: access.actorId, token });
        };
      }
      await sleep(Math.max(10, Math.min(backoff, answer.retryAfterMs ?? backoff)), access.signal);
      backoff = Math.min(backoff * 2, 250);
    }
  }

  async #call(id: string, operation: string, body: unknown): Promise<unknown> {
    const stub = this.#namespace.get(this.#namespace.idFromName(id) as never);
    let response: Response;
    try {
      response = await stub.fetch(`https://session.internal/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new SessionStoreError('The session Durable Object could not be reached', { cause: error });
    }
    const answer = (await response.json().catch(() => undefined)) as { error?: { code: string; message: string } } | undefined;
    if (response.ok && answer && !answer.error) return answer;
    if (answer?.error?.code === 'actor') throw new SessionActorError();
    if (answer?.error?.code === 'conflict') throw new ProtocolError('Session changed while it was being updated');
    throw new SessionStoreError(`The session Durable Object answered ${response.status}`);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new CancelledError({ cause: signal?.reason }));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
