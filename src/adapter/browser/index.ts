/**
 * Ghostlight in the browser: the IndexedDB session store.
 *
 * @module ghostlight/browser
 */
export { IndexedDbSessionStore } from './indexed-db-session-store';
export type { IndexedDbSessionStoreOptions } from './indexed-db-session-store';
 * Browser implementations of Ghostlight's seams (subpath `ghostlight/browser`).
 *
 * @module
 */
export { IndexedDbWorkspaceStore } from './indexeddb-workspace-store';
export type { IndexedDbWorkspaceStoreOptions } from './indexeddb-workspace-store';
