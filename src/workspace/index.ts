/**
 * The virtual filesystem: a workspace of named paths over pluggable stores
 * (memory here; Durable Objects and IndexedDB in the adapters), snapshots, and
 * the `workspace()` capability that gives every run one.
 *
 * @module ghostlight/workspace
 */
export { workspace } from './workspace-capability.ts';
export type { WorkspaceDeclaration, WorkspaceFactory } from './workspace-capability.ts';
export { Workspace } from './workspace.ts';
export type {
  WorkspaceChangeEvent,
  WorkspaceEntry,
  WorkspaceLifecycleContext,
  WorkspaceLocation,
  WorkspaceMount,
  WorkspaceOptions,
  WorkspaceTarget,
  WorkspaceUsage,
} from './workspace-options.ts';
export { DEFAULT_WORKSPACE_LIMITS } from './workspace-limits.ts';
export type { WorkspaceLimits } from './workspace-limits.ts';
export { WORKSPACE_SCHEME } from './workspace-path.ts';
export { isWorkspaceStore } from './workspace-store.ts';
export type { WorkspaceChange, WorkspaceRecord, WorkspaceStore } from './workspace-store.ts';
export { MemoryWorkspaceStore } from './memory-workspace-store.ts';
export { snapshotFromJson, snapshotToJson } from './workspace-snapshot.ts';
export type { WorkspaceRecordJson, WorkspaceSnapshot, WorkspaceSnapshotJson } from './workspace-snapshot.ts';
export { WorkspaceError } from './workspace-error.ts';
export type { WorkspaceErrorCode } from './workspace-error.ts';
export { WorkspaceLimitError } from './workspace-limit-error.ts';
export type { WorkspaceLimitName } from './workspace-limit-error.ts';
export { PolicyError } from './policy-error.ts';
