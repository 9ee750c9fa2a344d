export { MemorySessionStore } from './memory-session-store.ts';
export { SessionActorError, SessionStoreError } from './session-errors.ts';
export type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from './session-store.ts';
