/**
 * Ghostlight in the browser: the IndexedDB session store.
 *
 * @module ghostlight/browser
 */
export { IndexedDbSessionStore } from './indexed-db-session-store.ts';
export type { IndexedDbSessionStoreOptions } from './indexed-db-session-store.ts';
export { IndexedDbWorkspaceStore } from './indexed-db-workspace-store.ts';
export type { IndexedDbWorkspaceStoreOptions } from './indexed-db-workspace-store.ts';
