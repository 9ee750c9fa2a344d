import { WorkspaceError } from './workspace-error.ts';
import { baseName, isWithin, parentPath } from './workspace-path.ts';
import type { WorkspaceChange } from './workspace-store.ts';
import { measure, toRecord } from './workspace-volume.ts';
import type { DirectoryNode, FileNode, TreeNode, WorkspaceVolume } from './workspace-volume.ts';

/**
 * A mutation worked out against the current tree but not yet made: the
 * changes each volume's store must commit, the growth the limits are checked
 * against, and `apply`, which changes the tree once the commits succeeded.
 */
export interface WorkspacePlan {
  readonly changes: ReadonlyMap<WorkspaceVolume, WorkspaceChange[]>;
  readonly addedBytes: number;
  readonly addedEntries: number;
  readonly largestFile: number;
  readonly apply: () => void;
}

/** Plans writing `data` to a file at `path`. */
export function planWrite(volume: WorkspaceVolume, path: string, data: Uint8Array, now: number, parents: boolean): WorkspacePlan {
  if (path === '') throw new WorkspaceError('not-a-file', 'Path is not a file');
  const existing = volume.lookup(path);
  if (existing?.kind === 'directory') throw new WorkspaceError('not-a-file', 'Path is not a file');
  const created = missingParents(volume, parentPath(path), parents, 'Write target parent does not exist');
  const file: FileNode = { kind: 'file', data, modifiedAt: now };
  const changes: WorkspaceChange[] = created.map((directory) => ({ type: 'put', record: { path: directory, kind: 'directory', modifiedAt: now } }));
  changes.push({ type: 'put', record: toRecord(path, file) }, ...parentTouch(volume, path, now));
  return {
    changes: new Map([[volume, changes]]),
    addedBytes: data.length - (existing?.kind === 'file' ? existing.data.length : 0),
    addedEntries: created.length + (existing ? 0 : 1),
    largestFile: data.length,
    apply: () => {
      for (const directory of created) volume.set(directory, emptyDirectory(now));
      volume.set(path, file);
      touchParent(volume, path, now);
    },
  };
}

/** Plans creating a directory (and, with `parents`, its missing ancestors; an existing directory is then fine). */
export function planMkdir(volume: WorkspaceVolume, path: string, now: number, parents: boolean): WorkspacePlan {
  const existing = volume.lookup(path);
  if (existing) {
    if (existing.kind === 'directory' && parents) return emptyPlan();
    throw new WorkspaceError('already-exists', 'Path already exists');
  }
  const created = [...missingParents(volume, parentPath(path), parents, 'Parent directory does not exist'), path];
  return {
    changes: new Map([[volume, [...created.map((directory): WorkspaceChange => ({ type: 'put', record: { path: directory, kind: 'directory', modifiedAt: now } })), ...parentTouch(volume, created[0]!, now)]]]),
    addedBytes: 0,
    addedEntries: created.length,
    largestFile: 0,
    apply: () => {
      for (const directory of created) volume.set(directory, emptyDirectory(now));
      touchParent(volume, created[0]!, now);
    },
  };
}

/** Plans deleting a file, or a directory (recursively only when asked). */
export function planDelete(volume: WorkspaceVolume, path: string, recursive: boolean, protectedPaths: readonly string[], now: number): WorkspacePlan {
  const node = existingNode(volume, path);
  assertUnprotected(path, protectedPaths, 'Workspace paths cannot be removed');
  if (node.kind === 'directory' && node.entries.size > 0 && !recursive) throw new WorkspaceError('not-empty', 'Directory is not empty');
  const removed = measure(node);
  return {
    changes: new Map([[volume, [...volume.records(path, node).reverse().map((record): WorkspaceChange => ({ type: 'delete', path: record.path })), ...parentTouch(volume, path, now)]]]),
    addedBytes: -removed.bytes,
    addedEntries: -removed.entries,
    largestFile: 0,
    apply: () => {
      volume.remove(path);
      touchParent(volume, path, now);
    },
  };
}

/** Where a move or copy goes. */
export interface TransferEnds {
  readonly from: WorkspaceVolume;
  readonly fromPath: string;
  readonly to: WorkspaceVolume;
  readonly toPath: string;
}

/** Plans moving a file or directory; the destination must not exist unless `overwrite` replaces a file with a file. */
export function planMove(ends: TransferEnds, overwrite: boolean, protectedPaths: ReadonlyMap<WorkspaceVolume, readonly string[]>, now: number): WorkspacePlan {
  const { from, fromPath, to, toPath } = ends;
  const node = existingNode(from, fromPath);
  assertUnprotected(fromPath, protectedPaths.get(from) ?? [], 'Workspace paths cannot be moved');
  if (from === to && fromPath === toPath) return emptyPlan();
  if (from === to && node.kind === 'directory' && isWithin(toPath, fromPath)) {
    throw new WorkspaceError('invalid-path', 'Cannot move a directory into itself');
  }
  const replaced = destination(to, toPath, node, overwrite);
  const removals = from.records(fromPath, node).reverse().map((record) => ({ type: 'delete' as const, path: record.path }));
  const additions = relocated(from, fromPath, node, toPath).map((record) => ({ type: 'put' as const, record }));
  const changes = new Map<WorkspaceVolume, WorkspaceChange[]>();
  changes.set(to, [...(to === from ? removals : []), ...additions, ...parentTouch(to, toPath, now), ...(to === from ? parentTouch(from, fromPath, now) : [])]);
  if (to !== from) changes.set(from, [...removals, ...parentTouch(from, fromPath, now)]);
  return {
    changes,
    addedBytes: -(replaced?.bytes ?? 0),
    addedEntries: -(replaced?.entries ?? 0),
    largestFile: 0,
    apply: () => {
      from.remove(fromPath);
      to.set(toPath, node);
      touchParent(from, fromPath, now);
      touchParent(to, toPath, now);
    },
  };
}

/** Plans copying a file, or a directory when `recursive`. */
export function planCopy(ends: TransferEnds, recursive: boolean, overwrite: boolean, now: number): WorkspacePlan {
  const { from, fromPath, to, toPath } = ends;
  const node = existingNode(from, fromPath);
  if (node.kind === 'directory' && !recursive) throw new WorkspaceError('not-a-file', 'Path is not a file');
  if (node.kind === 'directory' && from === to && isWithin(toPath, fromPath)) {
    throw new WorkspaceError('invalid-path', 'Cannot copy a directory into itself');
  }
  const replaced = destination(to, toPath, node, overwrite);
  const copy = clone(node, now);
  const added = measure(copy);
  return {
    changes: new Map([[to, [...to.records(toPath, copy).map((record): WorkspaceChange => ({ type: 'put', record })), ...parentTouch(to, toPath, now)]]]),
    addedBytes: added.bytes - (replaced?.bytes ?? 0),
    addedEntries: added.entries - (replaced?.entries ?? 0),
    largestFile: largest(copy),
    apply: () => {
      to.set(toPath, copy);
      touchParent(to, toPath, now);
    },
  };
}

function existingNode(volume: WorkspaceVolume, path: string): TreeNode {
  if (path === '') throw new WorkspaceError('protected-path', 'Path must identify a workspace entry');
  const node = volume.lookup(path);
  if (!node) throw new WorkspaceError('not-found', 'Path does not exist');
  return node;
}

function destination(volume: WorkspaceVolume, path: string, source: TreeNode, overwrite: boolean): { bytes: number; entries: number } | undefined {
  if (path === '') throw new WorkspaceError('already-exists', 'Destination already exists');
  const parent = volume.lookup(parentPath(path));
  if (parent?.kind !== 'directory') throw new WorkspaceError('not-found', 'Write target parent does not exist');
  const existing = parent.entries.get(baseName(path));
  if (!existing) return undefined;
  if (!overwrite || existing.kind === 'directory' || source.kind === 'directory') {
    throw new WorkspaceError('already-exists', 'Destination already exists');
  }
  return measure(existing);
}

function missingParents(volume: WorkspaceVolume, path: string, parents: boolean, message: string): string[] {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    const node = volume.lookup(current);
    if (node?.kind === 'directory') break;
    if (node || !parents) throw new WorkspaceError('not-found', message);
    missing.unshift(current);
    current = parentPath(current);
  }
  return missing;
}

function assertUnprotected(path: string, protectedPaths: readonly string[], message: string): void {
  if (protectedPaths.some((named) => isWithin(named, path))) throw new WorkspaceError('protected-path', message);
}

/** The records of `node` as they will be stored at `toPath`. */
function relocated(volume: WorkspaceVolume, fromPath: string, node: TreeNode, toPath: string) {
  return volume.records(fromPath, node).map((record) => ({ ...record, path: toPath + record.path.slice(fromPath.length) }));
}

function clone(node: TreeNode, now: number): TreeNode {
  if (node.kind === 'file') return { kind: 'file', data: node.data, modifiedAt: now };
  const entries = new Map<string, TreeNode>();
  for (const [name, child] of node.entries) entries.set(name, clone(child, now));
  return { kind: 'directory', modifiedAt: now, entries };
}

function largest(node: TreeNode): number {
  if (node.kind === 'file') return node.data.length;
  let size = 0;
  for (const child of node.entries.values()) size = Math.max(size, largest(child));
  return size;
}

function emptyDirectory(now: number): DirectoryNode {
  return { kind: 'directory', modifiedAt: now, entries: new Map() };
}

/** The stored update of a parent directory whose modification time a change moves (none for a volume's top). */
function parentTouch(volume: WorkspaceVolume, path: string, now: number): WorkspaceChange[] {
  const parent = parentPath(path);
  if (parent === '' || volume.lookup(parent)?.kind !== 'directory') return [];
  return [{ type: 'put', record: { path: parent, kind: 'directory', modifiedAt: now } }];
}

function touchParent(volume: WorkspaceVolume, path: string, now: number): void {
  const parent = volume.lookup(parentPath(path));
  if (parent?.kind === 'directory') parent.modifiedAt = now;
}

function emptyPlan(): WorkspacePlan {
  return { changes: new Map(), addedBytes: 0, addedEntries: 0, largestFile: 0, apply: () => undefined };
}
