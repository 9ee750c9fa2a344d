/**
 * Ghostlight on Cloudflare Workers: the Durable Object session and workspace stores. The QuickJS
 * code engine has its own entry, `ghostlight/cloudflare/code-mode`.
 *
 * @module ghostlight/cloudflare
 */
export { DurableObjectSessionStore } from './durable-object-session-store';
export type { DurableObjectSessionStoreOptions } from './durable-object-session-store';
export { SessionDurableObject } from './session-durable-object';
export type { DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike, DurableObjectStubLike } from './durable-object-types';
export { DurableObjectWorkspaceStore } from './durable-object-workspace-store';
export type { DurableObjectWorkspaceStorage, DurableObjectWorkspaceStoreOptions } from './durable-object-workspace-store';
export { WorkspaceDurableObject } from './workspace-durable-object';
export type { WorkspaceDurableObjectState } from './workspace-durable-object';
