/**
 * Ghostlight on Cloudflare Workers: the Durable Object session and workspace stores. Code mode
 * needs nothing from here: `ghostlight/code-mode` picks the Workers build of QuickJS by itself
 * (the package's `workerd` condition).
 *
 * @module ghostlight/cloudflare
 */
export { DurableObjectSessionStore } from './durable-object-session-store.ts';
export type { DurableObjectSessionStoreOptions } from './durable-object-session-store.ts';
export { SessionDurableObject } from './session-durable-object.ts';
export type { DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike, DurableObjectStubLike } from './durable-object-types.ts';
export { DurableObjectWorkspaceStore } from './durable-object-workspace-store.ts';
export type { DurableObjectWorkspaceStorage, DurableObjectWorkspaceStoreOptions } from './durable-object-workspace-store.ts';
export { WorkspaceDurableObject } from './workspace-durable-object.ts';
export type { WorkspaceDurableObjectState } from './workspace-durable-object.ts';
