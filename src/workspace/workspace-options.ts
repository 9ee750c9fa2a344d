import type { RunHandle } from '../tool/tool-binding.ts';
import type { Workspace } from './workspace.ts';
import type { WorkspaceLimits } from './workspace-limits.ts';
import type { WorkspaceStore } from './workspace-store.ts';

/** A named path mounted from its own store instead of living beneath the root. */
export interface WorkspaceMount {
  /** Where the named path's entries persist (e.g. a read-only skills bundle shared by every run). */
  readonly store: WorkspaceStore;
}

/** What a workspace's setup and teardown hooks receive. */
export interface WorkspaceLifecycleContext {
  /** The workspace being opened or closed. */
  readonly workspace: Workspace;
  /** The run that opened it, when a run did. */
  readonly run: RunHandle | undefined;
}

/** Options of a {@link Workspace}. */
export interface WorkspaceOptions {
  /** Where the root's entries persist. Without one the tree lives only in memory. */
  store?: WorkspaceStore;
  /**
   * Named paths, addressed as `workspace://NAME/…`. A string is a directory
   * beneath the root (created on open, e.g. `{ artifacts: 'artifacts' }`); a
   * `{ store }` mounts a separate volume. Names: letters, digits, `_`, `-`;
   * `root` is reserved for the root itself.
   */
  paths?: Readonly<Record<string, string | WorkspaceMount>>;
  /** Storage limits over the defaults. */
  limits?: Partial<WorkspaceLimits>;
  /** Runs once per open, after the stores are loaded (provision files here). */
  setup?: (context: WorkspaceLifecycleContext) => void | Promise<void>;
  /** Runs once per close, also after a failed open. It does not delete files by itself. */
  teardown?: (context: WorkspaceLifecycleContext) => void | Promise<void>;
  /** Test-only injection of the clock used for modification times. */
  _internal?: { now?: () => number };
}

/** Where a reference points: a volume (`root` or a mounted name) and a normalised path in it. */
export interface WorkspaceLocation {
  /** `root`, or the name of a mounted path. */
  readonly volume: string;
  /** The path inside the volume; `''` is the volume's top. */
  readonly path: string;
}

/** A reference (`notes/a.md`, `workspace://skills/x`) or an already resolved location. */
export type WorkspaceTarget = string | WorkspaceLocation;

/** One file or directory as the workspace API reports it. */
export interface WorkspaceEntry {
  /** The last path segment (`''` for a volume's top). */
  readonly name: string;
  /** The stable logical reference (`notes/a.md`, `workspace://artifacts/x.csv`, `.`). */
  readonly reference: string;
  /** A file or a directory. */
  readonly kind: 'file' | 'directory';
  /** Bytes for files, the number of direct entries for directories. */
  readonly size: number;
  /** The last modification, in epoch milliseconds. */
  readonly modifiedAt: number;
}

/** Totals a workspace's limits are checked against. */
export interface WorkspaceUsage {
  /** The bytes of every file. */
  readonly bytes: number;
  /** Files and directories. */
  readonly entries: number;
}

/** One committed change, as `onChange` listeners see it. */
export interface WorkspaceChangeEvent {
  /** What happened. */
  readonly type: 'write' | 'mkdir' | 'delete' | 'move' | 'copy' | 'import';
  /** The references touched (for a move: source, then destination). */
  readonly references: readonly string[];
}
