import { ConfigurationError } from '../error/configuration-error.ts';
import type { RunHandle } from '../tool/tool-binding.ts';
import { Semaphore } from '../util/semaphore.ts';
import { WorkspaceError } from './workspace-error.ts';
import { registerWorkspaceInternals } from './workspace-internals.ts';
import { WorkspaceLimitError } from './workspace-limit-error.ts';
import { resolveWorkspaceLimits } from './workspace-limits.ts';
import type { WorkspaceLimits } from './workspace-limits.ts';
import type {
  WorkspaceChangeEvent,
  WorkspaceEntry,
  WorkspaceLifecycleContext,
  WorkspaceLocation,
  WorkspaceMount,
  WorkspaceOptions,
  WorkspaceTarget,
  WorkspaceUsage,
} from './workspace-options.ts';
import { baseName, isWithin, joinPath, normalizeSegments, parseReference, sortNames, WORKSPACE_SCHEME } from './workspace-path.ts';
import { planCopy, planDelete, planMkdir, planMove, planWrite } from './workspace-plan.ts';
import type { WorkspacePlan } from './workspace-plan.ts';
import { stageImport } from './workspace-import.ts';
import { declarePath } from './workspace-declare-path.ts';
import type { WorkspaceSnapshot } from './workspace-snapshot.ts';
import { isWorkspaceStore } from './workspace-store.ts';
import type { WorkspaceChange, WorkspaceRecord } from './workspace-store.ts';
import { WorkspaceVolume } from './workspace-volume.ts';
import type { TreeNode } from './workspace-volume.ts';

const ROOT = 'root';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A virtual filesystem for one run (or one conversation): a root plus named
 * paths addressed as `workspace://NAME/path`, with root-relative references
 * such as `notes/today.md`. The tree lives in memory; a {@link WorkspaceStore}
 * makes it durable (each change is committed before it becomes visible).
 *
 * A workspace names files; it does not restrict access. Give model-driven
 * code a {@link Sandbox} over it, which applies grants and limits.
 *
 * Ownership: whoever opens a workspace closes it. A run closes the workspace
 * it created and never one the application supplied. Closing runs the
 * teardown hook and keeps the files (in the store, or in memory for a
 * store-less workspace).
 *
 * Why this file is over 400 lines: it is the one class that owns the tree's
 * invariants (serialised mutations, limits, stores, change events) and every
 * public operation is a few lines over helpers that live beside it
 * (workspace-plan.ts, workspace-volume.ts, workspace-path.ts,
 * workspace-snapshot.ts); splitting it would expose its private state.
 *
 * @example
 * await using workspace = await Workspace.open({ paths: { artifacts: 'artifacts' } });
 * await workspace.writeFile('notes/today.md', '# Today\n', { parents: true });
 * await workspace.readText('notes/today.md'); // '# Today\n'
 * workspace.reference(workspace.resolve('artifacts/report.csv')); // 'workspace://artifacts/report.csv'
 */
export class Workspace implements AsyncDisposable {
  readonly #volumes = new Map<string, WorkspaceVolume>();
  readonly #named = new Map<string, WorkspaceLocation>();
  readonly #limits: WorkspaceLimits;
  readonly #setup: WorkspaceOptions['setup'];
  readonly #teardown: WorkspaceOptions['teardown'];
  readonly #now: () => number;
  readonly #mutex = new Semaphore(1);
  readonly #listeners = new Set<(event: WorkspaceChangeEvent) => void>();
  #open = false;
  #active = false;
  #opening: Promise<void> | undefined;
  #run: RunHandle | undefined;

  /** Checks the configuration; nothing is loaded until {@link open}. */
  constructor(options: WorkspaceOptions = {}) {
    if (options.store !== undefined && !isWorkspaceStore(options.store)) {
      throw new ConfigurationError('workspace store must implement workspace-store-v1');
    }
    this.#now = options._internal?.now ?? Date.now;
    this.#limits = resolveWorkspaceLimits(options.limits);
    this.#setup = callback(options.setup, 'setup');
    this.#teardown = callback(options.teardown, 'teardown');
    this.#volumes.set(ROOT, new WorkspaceVolume(ROOT, options.store, this.#now()));
    const paths = options.paths ?? {};
    if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) throw new ConfigurationError('workspace paths must be an object');
    for (const [name, spec] of Object.entries(paths)) this.#addPath(name, spec);
    registerWorkspaceInternals(this, {
      node: (location) => this.#node(location),
      namedPaths: () => this.#named,
      now: () => this.#now(),
    });
  }

  /**
   * Creates and opens a workspace.
   *
   * @example
   * const workspace = await Workspace.open({ store: new MemoryWorkspaceStore() });
   */
  static async open(options: WorkspaceOptions = {}): Promise<Workspace> {
    return new Workspace(options).open();
  }

  /** Whether the workspace is open. */
  get alive(): boolean {
    return this.#open;
  }

  /** The storage limits in force. */
  get limits(): WorkspaceLimits {
    return this.#limits;
  }

  /** The named paths and where each points (`root` is not listed). */
  get paths(): ReadonlyMap<string, WorkspaceLocation> {
    return new Map(this.#named);
  }

  /**
   * Adds a named path: a directory beneath the root (created now if the
   * workspace is open) or a `{ store }` mount (loaded now if open). Lets a
   * capability declare the path it writes to, e.g. `artifacts`.
   */
  async definePath(name: string, spec: string | WorkspaceMount): Promise<void> {
    const location = this.#addPath(name, spec);
    if (!this.#open) return;
    const volume = this.#volumes.get(location.volume)!;
    if (location.volume !== ROOT) volume.load(volume.store ? await volume.store.load() : [], this.#now());
    else await this.mkdir(location, { parents: true });
  }

  /**
   * Opens the workspace once: loads every store, creates the named
   * directories beneath the root, then runs `setup`. If anything fails the
   * workspace is closed (teardown runs) and the error is rethrown. Opening an
   * open workspace does nothing.
   */
  async open(options: { run?: RunHandle } = {}): Promise<this> {
    if (this.#open) return this;
    this.#opening ??= this.#doOpen(options.run).finally(() => {
      this.#opening = undefined;
    });
    await this.#opening;
    return this;
  }

  /** Runs `teardown` once (files are kept) and closes the workspace; later calls do nothing. */
  async close(): Promise<void> {
    if (!this.#active) return;
    this.#active = false;
    await this.#mutex.run(() => undefined);
    const run = this.#run;
    try {
      await this.#teardown?.({ workspace: this, run });
    } finally {
      this.#open = false;
      this.#run = undefined;
      for (const volume of this.#volumes.values()) if (volume.store) volume.load([], this.#now());
    }
  }

  /** Closes the workspace (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Resolves a reference to its location. Root-relative references and
   * `workspace://NAME/…` are accepted; host paths, `..`, NUL, backslashes,
   * encoded separators and unknown names are refused with a `WorkspaceError`.
   */
  resolve(target: WorkspaceTarget): WorkspaceLocation {
    if (typeof target !== 'string') {
      if (!this.#volumes.has(target?.volume) || typeof target.path !== 'string' || normalizeSegments(target.path) !== target.path) {
        throw new WorkspaceError('invalid-path', 'Not a location of this workspace');
      }
      return { volume: target.volume, path: target.path };
    }
    const parsed = parseReference(target);
    if (parsed.name === undefined) return { volume: ROOT, path: parsed.path };
    const base = this.#named.get(parsed.name);
    if (!base) throw new WorkspaceError('unknown-path', `workspace path must name a configured path: ${parsed.name}`);
    return { volume: base.volume, path: joinPath(base.path, parsed.path) };
  }

  /**
   * The stable logical reference of a location: `workspace://NAME/…` beneath
   * the longest matching named path, otherwise root-relative (`.` for the root).
   */
  reference(target: WorkspaceTarget): string {
    return this.#referenceOf(this.resolve(target));
  }

  #referenceOf({ volume, path }: WorkspaceLocation): string {
    let best: [string, string] | undefined;
    for (const [name, location] of this.#named) {
      if (location.volume !== volume || !isWithin(path, location.path)) continue;
      if (!best || location.path.length > best[1].length) best = [name, location.path];
    }
    if (!best) return path === '' ? '.' : path;
    const rest = best[1] === '' ? path : path.slice(best[1].length + 1);
    return rest === '' ? `${WORKSPACE_SCHEME}${best[0]}` : `${WORKSPACE_SCHEME}${best[0]}/${rest}`;
  }

  /** The file or directory at `target`, or `undefined` when nothing is there. */
  async stat(target: WorkspaceTarget): Promise<WorkspaceEntry | undefined> {
    const location = this.resolve(target);
    const node = this.#node(location);
    return node ? this.#entry(location, node) : undefined;
  }

  /** Whether anything exists at `target`. */
  async exists(target: WorkspaceTarget): Promise<boolean> {
    return (await this.stat(target)) !== undefined;
  }

  /** The bytes of a file (a copy). */
  async readFile(target: WorkspaceTarget): Promise<Uint8Array> {
    return this.#file(target).data.slice();
  }

  /** The text of a UTF-8 file; other bytes are a `WorkspaceError` (`invalid-text`). */
  async readText(target: WorkspaceTarget): Promise<string> {
    return decodeText(this.#file(target).data);
  }

  /** The entries of a directory, sorted by name. */
  async list(target: WorkspaceTarget = '.'): Promise<WorkspaceEntry[]> {
    const location = this.resolve(target);
    const node = this.#node(location);
    if (!node) throw new WorkspaceError('not-found', 'Path does not exist');
    if (node.kind !== 'directory') throw new WorkspaceError('not-a-directory', 'Path is not a directory');
    return sortNames([...node.entries.keys()]).map((name) => {
      const child = { volume: location.volume, path: joinPath(location.path, name) };
      return this.#entry(child, node.entries.get(name)!);
    });
  }

  /** Every file and directory beneath `target`, depth first, in name order. */
  async *walk(target: WorkspaceTarget = '.'): AsyncGenerator<WorkspaceEntry> {
    for (const entry of await this.list(target)) {
      yield entry;
      if (entry.kind === 'directory') yield* this.walk(this.resolve(entry.reference));
    }
  }

  /** Bytes and entries held by every volume together. */
  usage(): WorkspaceUsage {
    let bytes = 0;
    let entries = 0;
    for (const volume of this.#volumes.values()) {
      bytes += volume.bytes;
      entries += volume.entryCount;
    }
    return { bytes, entries };
  }

  /** Writes a file (text as UTF-8). With `parents`, missing directories are created. */
  async writeFile(target: WorkspaceTarget, content: string | Uint8Array, options: { parents?: boolean } = {}): Promise<void> {
    const data = typeof content === 'string' ? encoder.encode(content) : content.slice();
    await this.#mutate('write', [target], (now) => {
      const location = this.resolve(target);
      return planWrite(this.#volume(location), location.path, data, now, options.parents === true);
    });
  }

  /** Creates a directory. With `parents`, missing ancestors are created and an existing directory is fine. */
  async mkdir(target: WorkspaceTarget, options: { parents?: boolean } = {}): Promise<void> {
    await this.#mutate('mkdir', [target], (now) => {
      const location = this.resolve(target);
      return planMkdir(this.#volume(location), location.path, now, options.parents === true);
    });
  }

  /** Deletes a file, or a directory (non-empty ones only with `recursive`). Named paths cannot be deleted. */
  async delete(target: WorkspaceTarget, options: { recursive?: boolean | undefined } = {}): Promise<void> {
    await this.#mutate('delete', [target], (now) => {
      const location = this.resolve(target);
      return planDelete(this.#volume(location), location.path, options.recursive === true, this.#protectedPaths(location.volume), now);
    });
  }

  /** Moves a file or directory. The destination must not exist unless `overwrite` replaces a file with a file. */
  async move(from: WorkspaceTarget, to: WorkspaceTarget, options: { overwrite?: boolean } = {}): Promise<void> {
    await this.#mutate('move', [from, to], (now) => {
      const source = this.resolve(from);
      const destination = this.resolve(to);
      const protectedPaths = new Map([[this.#volume(source), this.#protectedPaths(source.volume)]]);
      return planMove(this.#ends(source, destination), options.overwrite === true, protectedPaths, now);
    });
  }

  /** Copies a file, or a directory with `recursive`. */
  async copy(from: WorkspaceTarget, to: WorkspaceTarget, options: { recursive?: boolean; overwrite?: boolean } = {}): Promise<void> {
    await this.#mutate('copy', [from, to], (now) =>
      planCopy(this.#ends(this.resolve(from), this.resolve(to)), options.recursive === true, options.overwrite === true, now),
    );
  }

  /** Calls `listener` after every committed change; returns the function that stops it. */
  onChange(listener: (event: WorkspaceChangeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Everything the workspace holds, every volume, without loss (file bytes are copies). */
  async exportSnapshot(): Promise<WorkspaceSnapshot> {
    return this.#mutex.run(() => {
      this.#assertOpen();
      const volumes: Record<string, WorkspaceRecord[]> = {};
      for (const [name, volume] of this.#volumes) {
        volumes[name] = volume.records('', volume.root).map((record) => (record.data ? { ...record, data: record.data.slice() } : record));
      }
      return { version: 'workspace-snapshot-v1' as const, volumes };
    });
  }

  /**
   * Restores a snapshot. `replace` (the default) makes each volume in the
   * snapshot hold exactly its records; `merge` writes them over what is there.
   * Limits apply; a volume the workspace does not have is a `WorkspaceError`.
   */
  async importSnapshot(snapshot: WorkspaceSnapshot, options: { mode?: 'replace' | 'merge' } = {}): Promise<void> {
    if (snapshot?.version !== 'workspace-snapshot-v1' || typeof snapshot.volumes !== 'object') {
      throw new WorkspaceError('invalid-path', 'Not a workspace snapshot (workspace-snapshot-v1)');
    }
    const replace = (options.mode ?? 'replace') === 'replace';
    await this.#mutex.run(async () => {
      this.#assertOpen();
      const staged = stageImport(this.#volumes, snapshot, replace, this.#now());
      const usage = this.usage();
      this.#checkLimits(
        usage.bytes + staged.reduce((sum, { volume, trial }) => sum + trial.bytes - volume.bytes, 0),
        usage.entries + staged.reduce((sum, { volume, trial }) => sum + trial.entryCount - volume.entryCount, 0),
        Math.max(0, ...staged.map(({ largestFile }) => largestFile)),
      );
      for (const { volume, trial } of staged) {
        const changes: WorkspaceChange[] = replace
          ? volume.records('', volume.root).reverse().map((record) => ({ type: 'delete', path: record.path }))
          : [];
        changes.push(...trial.records('', trial.root).map((record) => ({ type: 'put' as const, record })));
        await volume.store?.commit(changes);
        volume.root = trial.root;
        volume.bytes = trial.bytes;
        volume.entryCount = trial.entryCount;
      }
      this.#notify({ type: 'import', references: staged.map(({ volume }) => (volume.name === ROOT ? '.' : `${WORKSPACE_SCHEME}${volume.name}`)) });
    });
  }

  async #doOpen(run: RunHandle | undefined): Promise<void> {
    this.#run = run;
    this.#active = true;
    try {
      for (const volume of this.#volumes.values()) {
        if (volume.store) volume.load(await volume.store.load(), this.#now());
      }
      this.#open = true;
      for (const location of this.#named.values()) {
        if (location.volume === ROOT) await this.mkdir(location, { parents: true });
      }
      await this.#setup?.({ workspace: this, run } satisfies WorkspaceLifecycleContext);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async #mutate(type: WorkspaceChangeEvent['type'], targets: readonly WorkspaceTarget[], build: (now: number) => WorkspacePlan): Promise<void> {
    await this.#mutex.run(async () => {
      this.#assertOpen();
      const plan = build(this.#now());
      const usage = this.usage();
      this.#checkLimits(
        plan.addedBytes > 0 ? usage.bytes + plan.addedBytes : 0,
        plan.addedEntries > 0 ? usage.entries + plan.addedEntries : 0,
        plan.largestFile,
      );
      for (const [volume, changes] of plan.changes) if (changes.length > 0) await volume.store?.commit(changes);
      plan.apply();
      if (plan.changes.size > 0 && this.#listeners.size > 0) this.#notify({ type, references: targets.map((target) => this.reference(target)) });
    });
  }

  #checkLimits(bytes: number, entries: number, largestFile: number): void {
    if (largestFile > this.#limits.maxFileBytes) throw new WorkspaceLimitError('maxFileBytes', this.#limits.maxFileBytes);
    if (bytes > this.#limits.maxTotalBytes) throw new WorkspaceLimitError('maxTotalBytes', this.#limits.maxTotalBytes);
    if (entries > this.#limits.maxEntries) throw new WorkspaceLimitError('maxEntries', this.#limits.maxEntries);
  }

  #notify(event: WorkspaceChangeEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not undo a committed change.
      }
    }
  }

  #addPath(name: string, spec: string | WorkspaceMount): WorkspaceLocation {
    const location = declarePath(name, spec, this.#named, this.#volumes, this.#now());
    this.#named.set(name, location);
    return location;
  }

  #assertOpen(): void {
    if (!this.#open) throw new WorkspaceError('not-open', 'The workspace is not open');
  }

  #node(location: WorkspaceLocation): TreeNode | undefined {
    this.#assertOpen();
    return this.#volume(location).lookup(location.path);
  }

  #volume(location: WorkspaceLocation): WorkspaceVolume {
    const volume = this.#volumes.get(location.volume);
    if (!volume) throw new WorkspaceError('unknown-path', `workspace path must name a configured path: ${location.volume}`);
    return volume;
  }

  #file(target: WorkspaceTarget): { data: Uint8Array } {
    const node = this.#node(this.resolve(target));
    if (!node) throw new WorkspaceError('not-found', 'Path does not exist');
    if (node.kind !== 'file') throw new WorkspaceError('not-a-file', 'Path is not a file');
    return node;
  }

  #ends(from: WorkspaceLocation, to: WorkspaceLocation) {
    return { from: this.#volume(from), fromPath: from.path, to: this.#volume(to), toPath: to.path };
  }

  #protectedPaths(volume: string): string[] {
    return [...this.#named.values()].filter((location) => location.volume === volume).map((location) => location.path);
  }

  #entry(location: WorkspaceLocation, node: TreeNode): WorkspaceEntry {
    return {
      name: location.path === '' ? '' : baseName(location.path),
      reference: this.#referenceOf(location),
      kind: node.kind,
      size: node.kind === 'file' ? node.data.length : node.entries.size,
      modifiedAt: node.modifiedAt,
    };
  }
}

/** Decodes UTF-8 strictly; invalid bytes are a `WorkspaceError` (`invalid-text`). */
export function decodeText(data: Uint8Array): string {
  try {
    return decoder.decode(data);
  } catch (error) {
    throw new WorkspaceError('invalid-text', 'File is not valid UTF-8 text', { cause: error });
  }
}

function callback<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') throw new ConfigurationError(`workspace ${name} must be callable`);
  return value;
}
