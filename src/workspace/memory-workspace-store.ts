import type { WorkspaceChange, WorkspaceRecord, WorkspaceStore } from './workspace-store.ts';

/**
 * The in-memory {@link WorkspaceStore}: records live in a `Map` and are
 * copied in and out, so a store can outlive the workspaces that use it (one
 * store shared by several runs, or reopened after a close). A workspace
 * created without a store keeps its tree in memory and needs none.
 *
 * @example
 * const skills = new MemoryWorkspaceStore({ files: { 'refunds/SKILL.md': '---\nname: refunds\n---\n' } });
 * const workspace = await Workspace.open({ paths: { skills: { store: skills } } });
 */
export class MemoryWorkspaceStore implements WorkspaceStore {
  readonly version = 'workspace-store-v1' as const;
  readonly #records = new Map<string, WorkspaceRecord>();

  /** Creates a store, optionally seeded with files (text is stored as UTF-8). */
  constructor(options: { files?: Readonly<Record<string, string | Uint8Array>>; modifiedAt?: number } = {}) {
    const modifiedAt = options.modifiedAt ?? Date.now();
    const encoder = new TextEncoder();
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const data = typeof content === 'string' ? encoder.encode(content) : content.slice();
      this.#records.set(path, { path, kind: 'file', data, modifiedAt });
    }
  }

  /** How many records the store holds. */
  get size(): number {
    return this.#records.size;
  }

  async load(): Promise<readonly WorkspaceRecord[]> {
    return [...this.#records.values()].map(copyRecord);
  }

  async commit(changes: readonly WorkspaceChange[]): Promise<void> {
    for (const change of changes) {
      if (change.type === 'put') this.#records.set(change.record.path, copyRecord(change.record));
      else this.#records.delete(change.path);
    }
  }
}

function copyRecord(record: WorkspaceRecord): WorkspaceRecord {
  return record.data === undefined
    ? { path: record.path, kind: record.kind, modifiedAt: record.modifiedAt }
    : { path: record.path, kind: record.kind, data: record.data.slice(), modifiedAt: record.modifiedAt };
}
