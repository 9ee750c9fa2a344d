/**
 * Ghostlight in the browser: the IndexedDB session store.
 *
 * @module ghostlight/browser
 */
export { IndexedDbSessionStore } from './indexed-db-session-store';
export type { IndexedDbSessionStoreOptions } from './indexed-db-session-store';
export { IndexedDbWorkspaceStore } from './indexed-db-workspace-store';
export type { IndexedDbWorkspaceStoreOptions } from './indexed-db-workspace-store';
