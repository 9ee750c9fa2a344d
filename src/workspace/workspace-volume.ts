import { WorkspaceError } from './workspace-error.ts';
import { baseName, sortNames, joinPath, normalizeSegments, parentPath } from './workspace-path.ts';
import type { WorkspaceRecord, WorkspaceStore } from './workspace-store.ts';

/** A file in a workspace tree; its bytes are never changed in place. */
export interface FileNode {
  readonly kind: 'file';
  readonly data: Uint8Array;
  readonly modifiedAt: number;
}

/** A directory in a workspace tree. */
export interface DirectoryNode {
  readonly kind: 'directory';
  modifiedAt: number;
  readonly entries: Map<string, TreeNode>;
}

/** A node of a workspace tree. */
export type TreeNode = FileNode | DirectoryNode;

/**
 * One volume of a workspace: the root, or a named path mounted from its own
 * store. Holds the tree in memory and keeps the byte and entry counts the
 * workspace limits are checked against. Knows nothing about limits, grants or
 * persistence order: the workspace plans, commits, then applies.
 */
export class WorkspaceVolume {
  readonly name: string;
  readonly store: WorkspaceStore | undefined;
  root: DirectoryNode;
  bytes = 0;
  entryCount = 0;

  constructor(name: string, store: WorkspaceStore | undefined, now: number) {
    this.name = name;
    this.store = store;
    this.root = { kind: 'directory', modifiedAt: now, entries: new Map() };
  }

  /** Rebuilds the tree from stored records (parents a record implies are created). */
  load(records: readonly WorkspaceRecord[], now: number): void {
    this.root = { kind: 'directory', modifiedAt: now, entries: new Map() };
    this.bytes = 0;
    this.entryCount = 0;
    const sorted = [...records].sort((left, right) => depth(left.path) - depth(right.path));
    for (const record of sorted) {
      const path = normalizeSegments(record.path);
      if (path === '') continue;
      this.#ensureDirectories(parentPath(path), record.modifiedAt, record.path);
      const node: TreeNode = record.kind === 'directory'
        ? { kind: 'directory', modifiedAt: record.modifiedAt, entries: new Map() }
        : { kind: 'file', data: record.data ?? new Uint8Array(0), modifiedAt: record.modifiedAt };
      const existing = this.lookup(path);
      if (existing?.kind === 'directory' && node.kind === 'directory') {
        existing.modifiedAt = node.modifiedAt;
        continue;
      }
      if (existing) this.remove(path);
      this.set(path, node);
    }
  }

  /** The node at `path`, if any. */
  lookup(path: string): TreeNode | undefined {
    if (path === '') return this.root;
    let node: TreeNode = this.root;
    for (const segment of path.split('/')) {
      if (node.kind !== 'directory') return undefined;
      const next: TreeNode | undefined = node.entries.get(segment);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** Places `node` at `path`; the parent must exist and be a directory. */
  set(path: string, node: TreeNode): void {
    const parent = this.lookup(parentPath(path));
    if (parent?.kind !== 'directory') throw new Error(`workspace volume: no parent directory for ${path}`);
    const name = baseName(path);
    const previous = parent.entries.get(name);
    if (previous) this.#count(previous, -1);
    parent.entries.set(name, node);
    this.#count(node, 1);
  }

  /** Removes the node at `path` (and everything beneath it). */
  remove(path: string): TreeNode | undefined {
    const parent = this.lookup(parentPath(path));
    if (parent?.kind !== 'directory') return undefined;
    const name = baseName(path);
    const node = parent.entries.get(name);
    if (!node) return undefined;
    parent.entries.delete(name);
    this.#count(node, -1);
    return node;
  }

  /** Every record at and beneath `path`, parents before children, siblings in name order. */
  records(path: string, node: TreeNode = this.lookup(path)!): WorkspaceRecord[] {
    const records: WorkspaceRecord[] = [];
    const visit = (current: string, entry: TreeNode) => {
      if (current !== '') records.push(toRecord(current, entry));
      if (entry.kind !== 'directory') return;
      for (const name of sortNames([...entry.entries.keys()])) visit(joinPath(current, name), entry.entries.get(name)!);
    };
    visit(path, node);
    return records;
  }

  #ensureDirectories(path: string, modifiedAt: number, recordPath: string): void {
    if (path === '') return;
    const existing = this.lookup(path);
    if (existing?.kind === 'directory') return;
    if (existing) throw new WorkspaceError('not-a-directory', `Stored workspace entry conflicts with a file: ${recordPath}`);
    this.#ensureDirectories(parentPath(path), modifiedAt, recordPath);
    this.set(path, { kind: 'directory', modifiedAt, entries: new Map() });
  }

  #count(node: TreeNode, sign: 1 | -1): void {
    if (node.kind === 'file') {
      this.bytes += sign * node.data.length;
      this.entryCount += sign;
      return;
    }
    this.entryCount += sign;
    for (const child of node.entries.values()) this.#count(child, sign);
  }
}

/** The stored form of one node (file data is shared, never copied here). */
export function toRecord(path: string, node: TreeNode): WorkspaceRecord {
  return node.kind === 'file'
    ? { path, kind: 'file', data: node.data, modifiedAt: node.modifiedAt }
    : { path, kind: 'directory', modifiedAt: node.modifiedAt };
}

/** Counts the bytes and entries of a subtree. */
export function measure(node: TreeNode): { bytes: number; entries: number } {
  if (node.kind === 'file') return { bytes: node.data.length, entries: 1 };
  let bytes = 0;
  let entries = 1;
  for (const child of node.entries.values()) {
    const inner = measure(child);
    bytes += inner.bytes;
    entries += inner.entries;
  }
  return { bytes, entries };
}

function depth(path: string): number {
  let count = 0;
  for (let index = 0; index < path.length; index++) if (path.charCodeAt(index) === 47) count++;
  return count;
}
