import type { ModelMessage } from 'ai';
import { ProtocolError } from '../error/protocol-error.ts';
import type { JsonObject } from '../util/json.ts';
import { persistableMessages } from './persistable-messages.ts';
import { sessionJson } from './session-json.ts';
import { SessionActorError } from './session-errors.ts';
import { KeyedLock } from './session-lock.ts';
import type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from './session-store.ts';

interface SessionRecord {
  actorId: string | undefined;
  snapshot: SessionSnapshot | undefined;
}

/**
 * Sessions kept in memory for the life of the process, isolate or page. The
 * default store: no setup, nothing survives a restart. Values are copied in
 * and out as JSON, so callers never share live objects with the store.
 *
 * @example
 * const sessions = new MemorySessionStore();
 * await agent.ask('Hi, I am Ada', { sessions, sessionId: 'chat-1', actorId: 'user-7' });
 * const run = await agent.ask('What is my name?', { sessions, sessionId: 'chat-1', actorId: 'user-7' });
 */
export class MemorySessionStore implements SessionStore {
  readonly version = 'session-store-v1' as const;
  readonly #records = new Map<string, SessionRecord>();
  readonly #locks = new KeyedLock();

  async load(id: string, { actorId }: SessionAccess): Promise<SessionSnapshot | undefined> {
    const record = this.#records.get(id);
    checkActor(record, actorId);
    return record?.snapshot ? copy(record.snapshot) : undefined;
  }

  async append(id: string, update: SessionAppend & SessionAccess): Promise<void> {
    const record = this.#records.get(id);
    checkActor(record, update.actorId);
    const current = record?.snapshot?.messages ?? [];
    if (current.length !== update.expectedCount) throw new ProtocolError('Session changed while it was being updated');
    const added = copy(persistableMessages(update.messages));
    this.#records.set(id, {
      actorId: update.actorId,
      snapshot: { messages: [...current, ...added], state: copy(update.state), metadata: copy(update.metadata) },
    });
  }

  async replace(id: string, snapshot: SessionSnapshot & SessionAccess): Promise<void> {
    checkActor(this.#records.get(id), snapshot.actorId);
    this.#records.set(id, {
      actorId: snapshot.actorId,
      snapshot: {
        messages: copy(persistableMessages(snapshot.messages)),
        state: copy(snapshot.state as JsonObject),
        metadata: copy(snapshot.metadata as JsonObject),
      },
    });
  }

  lock(id: string, access: SessionAccess & { signal?: AbortSignal | undefined }): Promise<SessionRelease> {
    return this.#locks.acquire(JSON.stringify([access.actorId ?? null, id]), access.signal);
  }
}

function checkActor(record: SessionRecord | undefined, actorId: string | undefined): void {
  if (!record) return;
  if (record.actorId === actorId) return;
  throw new SessionActorError();
}

function copy<T extends SessionSnapshot | JsonObject | ModelMessage[]>(value: T): T {
  return sessionJson(value);
}
