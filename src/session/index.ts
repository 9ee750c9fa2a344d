export { MemorySessionStore } from './memory-session-store';
export { persistableMessages } from './persistable-messages';
export { sessionCapability } from './session-capability';
export { SessionActorError, SessionStoreError } from './session-errors';
export { KeyedLock } from './session-lock';
export type { SessionAccess, SessionAppend, SessionRelease, SessionSnapshot, SessionStore } from './session-store';
export { sessionJson } from './session-json';
