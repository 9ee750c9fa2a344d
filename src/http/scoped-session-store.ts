import type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from '../session/session-store.ts';

/**
 * A view of a session store in which every id is prefixed (`<agent>/<id>`),
 * so that each agent of an app has its own sessions: the same id names two
 * unrelated conversations for two agents.
 */
export function scopedSessionStore(store: SessionStore, prefix: string): SessionStore {
  const key = (id: string) => `${prefix}/${id}`;
  return {
    version: 'session-store-v1',
    load: (id: string, access: SessionAccess): Promise<SessionSnapshot | undefined> => store.load(key(id), access),
    append: (id: string, update: SessionAppend & SessionAccess): Promise<void> => store.append(key(id), update),
    replace: (id: string, snapshot: SessionSnapshot & SessionAccess): Promise<void> => store.replace(key(id), snapshot),
    lock: (id: string, access: SessionAccess & { signal?: AbortSignal | undefined }): Promise<SessionRelease> => store.lock(key(id), access),
  };
}
