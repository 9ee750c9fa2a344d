/**
 * One stored entry of a workspace volume: a file with its bytes, or a
 * directory (stored so empty directories survive a reload).
 */
export interface WorkspaceRecord {
  /** The normalised path inside the volume (`notes/today.md`), never empty. */
  readonly path: string;
  /** A file or a directory. */
  readonly kind: 'file' | 'directory';
  /** The file's bytes (files only). Treat as immutable once handed over. */
  readonly data?: Uint8Array;
  /** The last modification, in epoch milliseconds. */
  readonly modifiedAt: number;
}

/** One change in a commit: store a record, or delete the record at a path. */
export type WorkspaceChange =
  | { readonly type: 'put'; readonly record: WorkspaceRecord }
  | { readonly type: 'delete'; readonly path: string };

/**
 * Where a workspace volume's entries persist: the seam storage backends
 * implement (memory in the core, IndexedDB in `ghostlight/browser`, Durable
 * Object storage in `ghostlight/cloudflare`).
 *
 * A workspace loads every record once when it opens and keeps the tree in
 * memory; each mutation is one `commit`, made before the change becomes
 * visible, in the order the workspace made them. A backend should apply a
 * commit atomically (all of its changes or none); the shared contract suite
 * (`test/contract/workspace-store.ts`) checks what every backend must do.
 * Stores are owned by whoever created them: a workspace never closes its store.
 *
 * @example
 * const store = new MemoryWorkspaceStore();
 * const workspace = await Workspace.open({ store });
 */
export interface WorkspaceStore {
  /** The seam's version. */
  readonly version: 'workspace-store-v1';
  /** Every record of the volume, in any order. */
  load(): Promise<readonly WorkspaceRecord[]>;
  /** Applies `changes` in order, atomically where the backend can. */
  commit(changes: readonly WorkspaceChange[]): Promise<void>;
}

/** Whether `value` looks like a {@link WorkspaceStore}. */
export function isWorkspaceStore(value: unknown): value is WorkspaceStore {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 'workspace-store-v1' &&
    typeof (value as { load?: unknown }).load === 'function' &&
    typeof (value as { commit?: unknown }).commit === 'function'
  );
}
