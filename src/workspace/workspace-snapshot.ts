import { WorkspaceError } from './workspace-error.ts';
import { normalizeSegments } from './workspace-path.ts';
import type { WorkspaceRecord } from './workspace-store.ts';

/**
 * Everything a workspace holds, volume by volume (`root`, then each mounted
 * path): files with their bytes, directories (empty ones too) and
 * modification times. Exported and imported without loss.
 */
export interface WorkspaceSnapshot {
  /** The format's version. */
  readonly version: 'workspace-snapshot-v1';
  /** The records of each volume, parents before children. */
  readonly volumes: Readonly<Record<string, readonly WorkspaceRecord[]>>;
}

/** A stored record in JSON form: file bytes as base64. */
export interface WorkspaceRecordJson {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  readonly modifiedAt: number;
  readonly data?: string;
  readonly encoding?: 'base64';
}

/** A {@link WorkspaceSnapshot} that survives `JSON.stringify` (bytes as base64). */
export interface WorkspaceSnapshotJson {
  readonly version: 'workspace-snapshot-v1';
  readonly volumes: Readonly<Record<string, readonly WorkspaceRecordJson[]>>;
}

/**
 * Converts a snapshot to plain JSON data (file bytes as base64 with
 * `"encoding": "base64"`), e.g. to download it or keep it in a session.
 *
 * @example
 * const text = JSON.stringify(snapshotToJson(await workspace.exportSnapshot()));
 */
export function snapshotToJson(snapshot: WorkspaceSnapshot): WorkspaceSnapshotJson {
  const volumes: Record<string, WorkspaceRecordJson[]> = {};
  for (const [name, records] of Object.entries(snapshot.volumes)) {
    volumes[name] = records.map((record) =>
      record.kind === 'file'
        ? { path: record.path, kind: 'file', modifiedAt: record.modifiedAt, data: toBase64(record.data ?? new Uint8Array(0)), encoding: 'base64' }
        : { path: record.path, kind: 'directory', modifiedAt: record.modifiedAt },
    );
  }
  return { version: 'workspace-snapshot-v1', volumes };
}

/** Reads a snapshot from its JSON form; anything malformed is a `WorkspaceError`. */
export function snapshotFromJson(json: unknown): WorkspaceSnapshot {
  const value = json as Partial<WorkspaceSnapshotJson> | null;
  if (typeof value !== 'object' || value === null || value.version !== 'workspace-snapshot-v1' || typeof value.volumes !== 'object' || value.volumes === null) {
    throw new WorkspaceError('invalid-path', 'Not a workspace snapshot (workspace-snapshot-v1)');
  }
  const volumes: Record<string, WorkspaceRecord[]> = {};
  for (const [name, records] of Object.entries(value.volumes)) {
    if (!Array.isArray(records)) throw new WorkspaceError('invalid-path', `Workspace snapshot volume ${name} must be a list`);
    volumes[name] = records.map((record: WorkspaceRecordJson) => {
      checkRecordShape(record);
      return record.kind === 'file'
        ? { path: record.path, kind: 'file', modifiedAt: record.modifiedAt, data: fromBase64(record.data ?? '') }
        : { path: record.path, kind: 'directory', modifiedAt: record.modifiedAt };
    });
  }
  return { version: 'workspace-snapshot-v1', volumes };
}

/** Checks one record of a snapshot or store: a normalised non-empty path, a kind, a time, bytes for files. */
export function checkRecord(record: WorkspaceRecord): void {
  checkRecordShape(record);
  if (record.kind === 'file' && !(record.data instanceof Uint8Array)) {
    throw new WorkspaceError('invalid-path', `Workspace record ${record.path} has no bytes`);
  }
}

function checkRecordShape(record: { path?: unknown; kind?: unknown; modifiedAt?: unknown }): void {
  if (typeof record !== 'object' || record === null || typeof record.path !== 'string') {
    throw new WorkspaceError('invalid-path', 'Workspace record without a path');
  }
  if (record.kind !== 'file' && record.kind !== 'directory') throw new WorkspaceError('invalid-path', `Workspace record ${record.path} has no kind`);
  if (typeof record.modifiedAt !== 'number' || !Number.isFinite(record.modifiedAt)) {
    throw new WorkspaceError('invalid-path', `Workspace record ${record.path} has no modification time`);
  }
  if (record.path === '' || normalizeSegments(record.path) !== record.path) {
    throw new WorkspaceError('invalid-path', `Workspace record path is not normalised: ${record.path}`);
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  if (typeof text !== 'string') throw new WorkspaceError('invalid-path', 'Workspace snapshot file data must be base64 text');
  let binary: string;
  try {
    binary = atob(text);
  } catch (error) {
    throw new WorkspaceError('invalid-path', 'Workspace snapshot file data must be base64 text', { cause: error });
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
