/**
 * Ghostlight on Cloudflare Workers: the Durable Object session and workspace stores, and durable
 * runs (`durableRuns` + `defineRunDurableObject`: one Durable Object per run). Code mode
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
export { durableRuns } from './durable-runs.ts';
export { defineRunDurableObject } from './run-durable-object.ts';
export type { RunDurableObjectClass, RunDurableObjectInstance, RunDurableObjectSetup } from './run-durable-object.ts';
export type { RunLogLimits } from './run-event-log.ts';
export type { RunDurableObjectState, RunDurableObjectStorage } from './run-storage.ts';
export { RunEvictedError, RUN_EVICTED_MESSAGE } from './run-evicted-error.ts';
