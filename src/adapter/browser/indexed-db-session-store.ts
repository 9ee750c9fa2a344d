import type { ModelMessage } from 'ai';
import { CancelledError } from '../../error/control-errors.ts';
import { ProtocolError } from '../../error/protocol-error.ts';
import { persistableMessages } from '../../session/persistable-messages.ts';
import { SessionActorError } from '../../session/session-errors.ts';
import { sessionJson } from '../../session/session-json.ts';
import { KeyedLock } from '../../session/session-lock.ts';
import type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from '../../session/session-store.ts';
import type { JsonObject } from '../../util/json.ts';

interface Meta {
  id: string;
  actorId: string | null;
  count: number;
  state: JsonObject;
  metadata: JsonObject;
  hasSnapshot: boolean;
}

/** Options of {@link IndexedDbSessionStore}. */
export interface IndexedDbSessionStoreOptions {
  /** The database name (default `ghostlight-sessions`). */
  readonly name?: string;
  /** The IndexedDB factory (default `globalThis.indexedDB`). */
  readonly indexedDB?: IDBFactory;
}

/**
 * Sessions in the browser's IndexedDB: they survive reloads. One `sessions`
 * row per session (owner, count, state, metadata) and one `messages` row per
 * message, written in one transaction per append, so a reload mid-run keeps
 * every completed turn. Runs of one session are serialised across tabs with
 * the Web Locks API when the browser has it, within the page otherwise.
 *
 * @example
 * import { IndexedDbSessionStore } from 'ghostlight/browser';
 * const sessions = new IndexedDbSessionStore();
 * await agent.ask('Hello', { sessions, sessionId: 'chat-1', actorId: 'local-user' });
 */
export class IndexedDbSessionStore implements SessionStore {
  readonly version = 'session-store-v1' as const;
  readonly #name: string;
  readonly #factory: IDBFactory;
  readonly #locks = new KeyedLock();
  #db: Promise<IDBDatabase> | undefined;

  constructor(options: IndexedDbSessionStoreOptions = {}) {
    this.#name = options.name ?? 'ghostlight-sessions';
    this.#factory = options.indexedDB ?? globalThis.indexedDB;
  }

  async load(id: string, { actorId }: SessionAccess): Promise<SessionSnapshot | undefined> {
    return this.#transaction(async (sessions, messages) => {
      const meta = await request<Meta | undefined>(sessions.get(id));
      checkActor(meta, actorId);
      if (!meta?.hasSnapshot) return undefined;
      const rows = await request<Array<{ message: ModelMessage }>>(messages.getAll(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])));
      return { messages: rows.map((row) => row.message), state: meta.state, metadata: meta.metadata };
    });
  }

  async append(id: string, update: SessionAppend & SessionAccess): Promise<void> {
    const added = sessionJson(persistableMessages(update.messages));
    const state = sessionJson(update.state);
    const metadata = sessionJson(update.metadata);
    await this.#transaction(async (sessions, messages) => {
      const meta = await request<Meta | undefined>(sessions.get(id));
      checkActor(meta, update.actorId);
      const count = meta?.count ?? 0;
      if (count !== update.expectedCount) throw new ProtocolError('Session changed while it was being updated');
      for (const [index, message] of added.entries()) await request(messages.put({ session: id, index: count + index, message }));
      await request(sessions.put({ id, actorId: update.actorId ?? null, count: count + added.length, state, metadata, hasSnapshot: true } satisfies Meta));
    });
  }

  async replace(id: string, snapshot: SessionSnapshot & SessionAccess): Promise<void> {
    const all = sessionJson(persistableMessages(snapshot.messages));
    await this.#transaction(async (sessions, messages) => {
      checkActor(await request<Meta | undefined>(sessions.get(id)), snapshot.actorId);
      await request(messages.delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])));
      for (const [index, message] of all.entries()) await request(messages.put({ session: id, index, message }));
      await request(
        sessions.put({ id, actorId: snapshot.actorId ?? null, count: all.length, state: sessionJson(snapshot.state as JsonObject), metadata: sessionJson(snapshot.metadata as JsonObject), hasSnapshot: true } satisfies Meta),
      );
    });
  }

  async lock(id: string, access: SessionAccess & { signal?: AbortSignal | undefined }): Promise<SessionRelease> {
    const key = `${this.#name}:${JSON.stringify([access.actorId ?? null, id])}`;
    const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
    if (!locks) return this.#locks.acquire(key, access.signal);
    if (access.signal?.aborted) throw new CancelledError({ cause: access.signal.reason });
    return new Promise<SessionRelease>((resolve, reject) => {
      locks
        .request(key, access.signal ? { signal: access.signal } : {}, () => new Promise<void>((release) => resolve(() => release())))
        .catch((error: unknown) => reject(access.signal?.aborted ? new CancelledError({ cause: error }) : error));
    });
  }

  /** Closes the database connection. */
  close(): void {
    void this.#db?.then((db) => db.close());
    this.#db = undefined;
  }

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const opening = this.#factory.open(this.#name, 1);
      opening.onupgradeneeded = () => {
        const db = opening.result;
        db.createObjectStore('sessions', { keyPath: 'id' });
        db.createObjectStore('messages', { keyPath: ['session', 'index'] });
      };
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    return this.#db;
  }

  /** Runs `work` in one read-write transaction over both stores; rejects (and aborts) if `work` throws. */
  async #transaction<T>(work: (sessions: IDBObjectStore, messages: IDBObjectStore) => Promise<T>): Promise<T> {
    const db = await this.#open();
    const transaction = db.transaction(['sessions', 'messages'], 'readwrite');
    const done = new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error ?? new Error('The IndexedDB transaction was aborted'));
    });
    done.catch(() => undefined);
    let result: T;
    try {
      result = await work(transaction.objectStore('sessions'), transaction.objectStore('messages'));
    } catch (error) {
      try {
        transaction.abort();
      } catch {
        // already finished
      }
      throw error;
    }
    await done;
    return result;
  }
}

function checkActor(meta: Meta | undefined, actorId: string | undefined): void {
  if (meta && meta.actorId !== (actorId ?? null)) throw new SessionActorError();
}

function request<T = unknown>(operation: IDBRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result as T);
    operation.onerror = () => reject(operation.error);
  });
}
