import { sha256Hex } from '../../util/sha256.ts';
import type { WorkspaceChange, WorkspaceRecord, WorkspaceStore } from '../../workspace/workspace-store.ts';

/**
 * The part of a Durable Object's `ctx.storage` (its key-value API) the store
 * uses; both SQLite-backed and key-value-backed objects provide it.
 */
export interface DurableObjectWorkspaceStorage {
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options: { prefix: string }): Promise<Map<string, T>>;
}

/** Options of {@link DurableObjectWorkspaceStore}. */
export interface DurableObjectWorkspaceStoreOptions {
  /** Prefix of every key, so one object can hold several workspaces (default `workspace:`). */
  prefix?: string;
}

interface EntryValue {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  readonly modifiedAt: number;
  readonly chunks: number;
}

/** Bytes per stored chunk: below the 128 KiB value limit of key-value-backed objects. */
const CHUNK_BYTES = 100_000;
/** Keys per `put`/`delete` call (the storage API's limit). */
const BATCH = 128;

/**
 * A {@link WorkspaceStore} in Durable Object storage, so a conversation's
 * workspace survives requests, evictions and Worker restarts. Use it inside
 * the Durable Object that owns the workspace (one object per conversation
 * serialises its requests). Keys are hashes of paths (paths may be longer
 * than a key may be); file bytes are split into 100,000-byte chunks. A commit
 * issues all of its writes without awaiting in between, which Durable
 * Objects apply atomically.
 *
 * @example
 * import { DurableObjectWorkspaceStore } from 'ghostlight/cloudflare';
 * const workspace = await Workspace.open({ store: new DurableObjectWorkspaceStore(this.ctx.storage) });
 */
export class DurableObjectWorkspaceStore implements WorkspaceStore {
  readonly version = 'workspace-store-v1' as const;
  readonly #storage: DurableObjectWorkspaceStorage;
  readonly #entries: string;
  readonly #chunks: string;

  constructor(storage: DurableObjectWorkspaceStorage, options: DurableObjectWorkspaceStoreOptions = {}) {
    if (!storage || typeof storage.list !== 'function') throw new TypeError('DurableObjectWorkspaceStore needs Durable Object storage');
    const prefix = options.prefix ?? 'workspace:';
    this.#storage = storage;
    this.#entries = `${prefix}e:`;
    this.#chunks = `${prefix}c:`;
  }

  async load(): Promise<readonly WorkspaceRecord[]> {
    const entries = await this.#storage.list<EntryValue>({ prefix: this.#entries });
    const chunks = await this.#storage.list<Uint8Array>({ prefix: this.#chunks });
    const records: WorkspaceRecord[] = [];
    for (const [key, entry] of entries) {
      if (entry.kind === 'directory') {
        records.push({ path: entry.path, kind: 'directory', modifiedAt: entry.modifiedAt });
        continue;
      }
      const hash = key.slice(this.#entries.length);
      const parts: Uint8Array[] = [];
      for (let index = 0; index < entry.chunks; index++) {
        const part = chunks.get(this.#chunkKey(hash, index));
        if (!part) throw new Error(`Durable Object workspace store is missing a chunk of ${entry.path}`);
        parts.push(part);
      }
      records.push({ path: entry.path, kind: 'file', modifiedAt: entry.modifiedAt, data: concat(parts) });
    }
    return records;
  }

  async commit(changes: readonly WorkspaceChange[]): Promise<void> {
    if (changes.length === 0) return;
    const paths = [...new Set(changes.map((change) => (change.type === 'put' ? change.record.path : change.path)))];
    const hashes = new Map(await Promise.all(paths.map(async (path) => [path, await sha256Hex(path)] as const)));
    const existing = await this.#storage.get<EntryValue>(paths.map((path) => this.#entries + hashes.get(path)!));
    // Work out the final state of every touched path, then write it all without awaiting in between.
    const chunkCounts = new Map(paths.map((path) => [path, existing.get(this.#entries + hashes.get(path)!)?.chunks ?? 0]));
    const puts: Record<string, unknown> = {};
    const deletes = new Set<string>();
    for (const change of changes) {
      const path = change.type === 'put' ? change.record.path : change.path;
      const hash = hashes.get(path)!;
      const entryKey = this.#entries + hash;
      const previousChunks = chunkCounts.get(path)!;
      const parts = change.type === 'put' && change.record.kind === 'file' ? split(change.record.data ?? new Uint8Array(0)) : [];
      for (let index = parts.length; index < previousChunks; index++) {
        const key = this.#chunkKey(hash, index);
        delete puts[key];
        deletes.add(key);
      }
      chunkCounts.set(path, parts.length);
      if (change.type === 'delete') {
        delete puts[entryKey];
        deletes.add(entryKey);
        continue;
      }
      const { record } = change;
      deletes.delete(entryKey);
      puts[entryKey] = { path, kind: record.kind, modifiedAt: record.modifiedAt, chunks: parts.length } satisfies EntryValue;
      parts.forEach((part, index) => {
        const key = this.#chunkKey(hash, index);
        deletes.delete(key);
        puts[key] = part;
      });
    }
    const writes: Promise<unknown>[] = [];
    const putKeys = Object.keys(puts);
    for (let start = 0; start < putKeys.length; start += BATCH) {
      writes.push(this.#storage.put(Object.fromEntries(putKeys.slice(start, start + BATCH).map((key) => [key, puts[key]]))));
    }
    const deleteKeys = [...deletes];
    for (let start = 0; start < deleteKeys.length; start += BATCH) writes.push(this.#storage.delete(deleteKeys.slice(start, start + BATCH)));
    await Promise.all(writes);
  }

  #chunkKey(hash: string, index: number): string {
    return `${this.#chunks}${hash}:${String(index).padStart(6, '0')}`;
  }
}

function split(data: Uint8Array): Uint8Array[] {
  if (data.length === 0) return [];
  const parts: Uint8Array[] = [];
  for (let start = 0; start < data.length; start += CHUNK_BYTES) parts.push(data.slice(start, start + CHUNK_BYTES));
  return parts;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return new Uint8Array(parts[0]!);
  const data = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    data.set(part, offset);
    offset += part.length;
  }
  return data;
}
