import type { WorkspaceChange, WorkspaceRecord, WorkspaceStore } from '../../workspace/workspace-store.ts';

/** Options of {@link IndexedDbWorkspaceStore}. */
export interface IndexedDbWorkspaceStoreOptions {
  /** Which workspace this store holds (several share one database), e.g. `playground`. */
  name: string;
  /** The IndexedDB database (default `ghostlight-workspaces`). */
  database?: string;
  /** The IndexedDB factory (default the page's or worker's `indexedDB`). */
  indexedDB?: IDBFactory;
}

interface StoredRow {
  readonly workspace: string;
  readonly path: string;
  readonly kind: 'file' | 'directory';
  readonly modifiedAt: number;
  readonly data?: Uint8Array;
}

const OBJECT_STORE = 'records';

/**
 * A {@link WorkspaceStore} in the browser's IndexedDB, so a workspace (the
 * playground's, say) survives a page reload. Each commit is one IndexedDB
 * transaction: all of its changes or none. The database opens on first use;
 * `close()` releases the connection (the store stays usable and reopens).
 *
 * @example
 * import { IndexedDbWorkspaceStore } from 'ghostlight/browser';
 * const workspace = await Workspace.open({ store: new IndexedDbWorkspaceStore({ name: 'playground' }) });
 */
export class IndexedDbWorkspaceStore implements WorkspaceStore {
  readonly version = 'workspace-store-v1' as const;
  readonly #name: string;
  readonly #database: string;
  readonly #factory: IDBFactory | undefined;
  #connection: Promise<IDBDatabase> | undefined;

  constructor(options: IndexedDbWorkspaceStoreOptions) {
    if (typeof options?.name !== 'string' || options.name.length === 0) throw new TypeError('IndexedDbWorkspaceStore needs a name');
    this.#name = options.name;
    this.#database = options.database ?? 'ghostlight-workspaces';
    this.#factory = options.indexedDB;
  }

  async load(): Promise<readonly WorkspaceRecord[]> {
    const database = await this.#open();
    const transaction = database.transaction(OBJECT_STORE, 'readonly');
    const rows = await request<StoredRow[]>(transaction.objectStore(OBJECT_STORE).getAll(this.#range()));
    return rows.map((row) =>
      row.kind === 'file'
        ? { path: row.path, kind: 'file', modifiedAt: row.modifiedAt, data: row.data ?? new Uint8Array(0) }
        : { path: row.path, kind: 'directory', modifiedAt: row.modifiedAt },
    );
  }

  async commit(changes: readonly WorkspaceChange[]): Promise<void> {
    if (changes.length === 0) return;
    const database = await this.#open();
    const transaction = database.transaction(OBJECT_STORE, 'readwrite');
    const store = transaction.objectStore(OBJECT_STORE);
    for (const change of changes) {
      if (change.type === 'delete') store.delete([this.#name, change.path]);
      else store.put(this.#row(change.record));
    }
    await done(transaction);
  }

  /** Deletes every record of this workspace. */
  async clear(): Promise<void> {
    const database = await this.#open();
    const transaction = database.transaction(OBJECT_STORE, 'readwrite');
    transaction.objectStore(OBJECT_STORE).delete(this.#range());
    await done(transaction);
  }

  /** Closes the database connection (it reopens on the next use). */
  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) (await connection).close();
  }

  #row(record: WorkspaceRecord): StoredRow {
    const base = { workspace: this.#name, path: record.path, kind: record.kind, modifiedAt: record.modifiedAt };
    return record.kind === 'file' ? { ...base, data: record.data ?? new Uint8Array(0) } : base;
  }

  #range(): IDBKeyRange {
    // Arrays sort after strings in IndexedDB, so [name, []] bounds every [name, path].
    return IDBKeyRange.bound([this.#name, ''], [this.#name, []]);
  }

  #open(): Promise<IDBDatabase> {
    this.#connection ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = this.#factory ?? globalThis.indexedDB;
      if (!factory) {
        reject(new Error('IndexedDB is not available here'));
        return;
      }
      const opening = factory.open(this.#database, 1);
      opening.onupgradeneeded = () => {
        if (!opening.result.objectStoreNames.contains(OBJECT_STORE)) {
          opening.result.createObjectStore(OBJECT_STORE, { keyPath: ['workspace', 'path'] });
        }
      };
      opening.onsuccess = () => {
        const database = opening.result;
        database.onversionchange = () => {
          database.close();
          this.#connection = undefined;
        };
        resolve(database);
      };
      opening.onerror = () => reject(opening.error);
      opening.onblocked = () => reject(new Error(`IndexedDB database ${this.#database} is blocked by another connection`));
    });
    this.#connection.catch(() => {
      this.#connection = undefined;
    });
    return this.#connection;
  }
}

function request<T>(pending: IDBRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result as T);
    pending.onerror = () => reject(pending.error);
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}
