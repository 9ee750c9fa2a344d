export { MemorySessionStore } from './memory-session-store.ts';
export { SessionActorError, SessionBusyError, SessionStoreError } from './session-errors.ts';
export { MAX_SESSION_JSON_DEPTH } from './session-json.ts';
export type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from './session-store.ts';
