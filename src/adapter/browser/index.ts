/**
 * Ghostlight in the browser: the IndexedDB session and workspace stores, and code mode's Web Worker engine.
 *
 * @module ghostlight/browser
 */
export { IndexedDbSessionStore } from './indexed-db-session-store.ts';
export type { IndexedDbSessionStoreOptions } from './indexed-db-session-store.ts';
export { IndexedDbWorkspaceStore } from './indexed-db-workspace-store.ts';
export type { IndexedDbWorkspaceStoreOptions } from './indexed-db-workspace-store.ts';
export { createWebWorkerCodeEngine } from './web-worker-code-engine.ts';
export type { WebWorkerCodeEngineOptions } from './web-worker-code-engine.ts';
