import type { WorkspaceLocation } from './workspace-options.ts';
import type { TreeNode } from './workspace-volume.ts';

/**
 * What the sandbox reads from a workspace without copying: nodes of the
 * in-memory tree and the named paths. Not part of the public API.
 */
export interface WorkspaceInternals {
  /** The node at `location`, if any (throws when the workspace is not open). */
  node(location: WorkspaceLocation): TreeNode | undefined;
  /** Every named path and where it points (`root` excluded). */
  namedPaths(): ReadonlyMap<string, WorkspaceLocation>;
  /** The current modification clock. */
  now(): number;
}

const registry = new WeakMap<object, WorkspaceInternals>();

/** Registers a workspace's internals (called by its constructor). */
export function registerWorkspaceInternals(workspace: object, internals: WorkspaceInternals): void {
  registry.set(workspace, internals);
}

/** The internals of `workspace`; throws for anything that is not a Workspace. */
export function workspaceInternals(workspace: object): WorkspaceInternals {
  const internals = registry.get(workspace);
  if (!internals) throw new TypeError('Expected a Ghostlight Workspace');
  return internals;
}
