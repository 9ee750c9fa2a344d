/**
 * Ghostlight on Cloudflare Workers: the Durable Object session store.
 *
 * @module ghostlight/cloudflare
 */
export { DurableObjectSessionStore } from './durable-object-session-store';
export type { DurableObjectSessionStoreOptions } from './durable-object-session-store';
export { SessionDurableObject } from './session-durable-object';
export type { DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike, DurableObjectStubLike } from './durable-object-types';
