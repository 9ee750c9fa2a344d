import { CapabilityError } from '../error/configuration-error.ts';
import { UseAfterDisposeError } from '../lifetime/async-scope.ts';
import type { RunHandle } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import { throwIfAborted } from '../util/abort.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { decodeText } from '../workspace/workspace.ts';
import type { WorkspaceInternals } from '../workspace/workspace-internals.ts';
import type { WorkspaceEntry, WorkspaceLocation } from '../workspace/workspace-options.ts';
import { baseName, sortNames, isWithin, joinPath } from '../workspace/workspace-path.ts';
import type { TreeNode } from '../workspace/workspace-volume.ts';
import { featureWords, normalizeFeatures } from './sandbox-features.ts';
import type { SandboxFeature } from './sandbox-features.ts';
import { effectiveAccess, grantsBeneath, narrowGrants } from './sandbox-grants.ts';
import type { EffectiveAccess, GrantSelection, GrantSet } from './sandbox-grants.ts';
import { SandboxLimitError } from './sandbox-limit-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import { globEntries, grepFiles } from './sandbox-search.ts';
import type { GlobOptions, GrepMatch, GrepOptions, GrepResult } from './sandbox-search.ts';

const encoder = new TextEncoder();

/** Options of {@link SandboxView.scope}. */
export interface SandboxScopeOptions {
  /** Tool-visible grants to keep: names (inheriting access) or names with a narrower access. */
  files?: GrantSelection;
  /** Runtime-only grants to keep. */
  runtimePaths?: GrantSelection;
  /** Features to keep (`filesystem_read`, `write`, …); omitted keeps the parent's. */
  capabilities?: readonly string[];
}

/** Cancellation for long operations (searches, recursive copies). */
export interface SandboxCallOptions {
  readonly signal?: AbortSignal | undefined;
}

/** What a view is built from (internal). */
export interface SandboxContext {
  readonly workspace: Workspace;
  readonly internals: WorkspaceInternals;
  readonly grants: GrantSet;
  readonly capabilities: ReadonlySet<SandboxFeature>;
  readonly limits: SandboxLimits;
  readonly view: 'tools' | 'runtime';
  readonly owner: { readonly alive: boolean };
  readonly profile: (name: string) => SandboxScopeOptions;
}

/** A resolved path with the access that applies there. */
interface Located {
  readonly location: WorkspaceLocation;
  readonly access: EffectiveAccess;
}

/**
 * The operations a sandbox exposes over its workspace, checked against its
 * grants, capabilities and limits: what the filesystem tools, the virtual
 * shell and application tools call. A {@link Sandbox} is one; each
 * {@link SandboxView.scope} returns a narrower one. Every failure is a
 * `ToolError` with LittleGhost's message (`Path is outside the sandbox
 * scope`, `Sandbox scope is read-only`, …), safe to show the model.
 */
export class SandboxView {
  readonly #context: SandboxContext;

  /** Built by {@link Sandbox} and {@link SandboxView.scope}. */
  constructor(context: SandboxContext) {
    this.#context = context;
  }

  /** The workspace this view governs (naming paths; it does not restrict them). */
  get workspace(): Workspace {
    return this.#context.workspace;
  }

  /** The features this view exposes. */
  get capabilities(): readonly SandboxFeature[] {
    return [...this.#context.capabilities];
  }

  /** The per-operation limits. */
  get limits(): SandboxLimits {
    return this.#context.limits;
  }

  /** Whether tools may change anything: `filesystem_write` and a tool-visible read-write grant. */
  get writable(): boolean {
    return this.supports('filesystem_write') && this.#context.grants.own.some((grant) => grant.visibility === 'files' && grant.access === 'read_write');
  }

  /** Whether this view exposes `feature` (aliases such as `write` accepted). */
  supports(feature: string): boolean {
    try {
      return [...normalizeFeatures([feature], new Set())].every((name) => this.#context.capabilities.has(name));
    } catch {
      return false;
    }
  }

  /** Whether `operation` is allowed, optionally at `path` (never throws). */
  allows(operation: string, path?: string): boolean {
    if (!this.supports(operation)) return false;
    if (path === undefined) return true;
    try {
      const { access } = this.#locate(path);
      const writes = ['filesystem_write', 'filesystem_replace', 'write', 'replace'].includes(operation);
      return !writes || access.access === 'read_write';
    } catch {
      return false;
    }
  }

  /** Reads a UTF-8 text file (at most the read limit). */
  async read(path: string): Promise<string> {
    this.#require('filesystem_read');
    return decodeText(this.#readable(path).data);
  }

  /** Reads a file's bytes (at most the read limit). */
  async readBytes(path: string): Promise<Uint8Array> {
    this.#require('filesystem_read');
    return this.#readable(path).data.slice();
  }

  /** Lists a directory LittleGhost's way: sorted names, directories suffixed `/`, one per line. */
  async list(path = '.'): Promise<string> {
    this.#require('filesystem_list');
    const virtual = this.#virtualChildren(path);
    if (virtual) return virtual.join('\n');
    return this.#entries(path)
      .map((entry) => (entry.kind === 'directory' ? `${entry.name}/` : entry.name))
      .join('\n');
  }

  /** The entries of a directory with their kinds, sizes and references. */
  async entries(path = '.'): Promise<WorkspaceEntry[]> {
    this.#require('filesystem_list');
    return this.#entries(path);
  }

  /** The entry at `path`, or `undefined` if nothing is there. */
  async stat(path: string): Promise<WorkspaceEntry | undefined> {
    this.#require('filesystem_list');
    const { location } = this.#locate(path);
    return this.#context.workspace.stat(location);
  }

  /** Writes a file (text as UTF-8); its parent must exist. Returns `Wrote N bytes to <reference>`. */
  async write(path: string, content: string | Uint8Array): Promise<string> {
    this.#require('filesystem_write');
    const target = this.#writable(path);
    return this.#write(target.location, content);
  }

  /** Replaces the one occurrence of `oldText` in a UTF-8 file. Returns the write's message. */
  async replace(path: string, oldText: string, newText: string): Promise<string> {
    this.#require('filesystem_replace');
    if (oldText.length === 0) throw new ToolError('Text to replace cannot be empty');
    const target = this.#writable(path);
    const content = decodeText(this.#readable(path).data);
    const reference = this.#context.workspace.reference(target.location);
    const first = content.indexOf(oldText);
    if (first === -1) throw new ToolError(`Text was not found in ${reference}`);
    if (content.indexOf(oldText, first + oldText.length) !== -1) throw new ToolError(`Text occurs more than once in ${reference}`);
    return this.#write(target.location, content.slice(0, first) + newText + content.slice(first + oldText.length));
  }

  /** Creates a directory (with `parents`, its missing ancestors too). */
  async mkdir(path: string, options: { parents?: boolean } = {}): Promise<string> {
    this.#require('filesystem_write');
    const target = this.#writable(path);
    await this.#context.workspace.mkdir(target.location, options);
    return `Created ${this.#context.workspace.reference(target.location)}`;
  }

  /** Deletes a file, or a directory (non-empty ones with `recursive`). Returns `Deleted <reference>`. */
  async delete(path: string, options: { recursive?: boolean | undefined } = {}): Promise<string> {
    this.#require('filesystem_write');
    const target = this.#writable(path);
    this.#assertNothingProtectedBeneath(target.location);
    await this.#context.workspace.delete(target.location, options);
    return `Deleted ${this.#context.workspace.reference(target.location)}`;
  }

  /** Moves a file or directory; the destination must not exist. Returns `Moved <from> to <to>`. */
  async move(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<string> {
    this.#require('filesystem_write');
    const source = this.#writable(from);
    const destination = this.#writable(to);
    this.#assertNothingProtectedBeneath(source.location);
    await this.#context.workspace.move(source.location, destination.location, options);
    const workspace = this.#context.workspace;
    return `Moved ${workspace.reference(source.location)} to ${workspace.reference(destination.location)}`;
  }

  /** Copies a file, or a directory with `recursive`. Returns `Copied <from> to <to>`. */
  async copy(from: string, to: string, options: { recursive?: boolean; overwrite?: boolean } = {}): Promise<string> {
    this.#require('filesystem_read');
    this.#require('filesystem_write');
    const source = this.#locate(from);
    if (this.#context.view === 'tools' && grantsBeneath(this.#context.grants, source.location).some((grant) => grant.visibility === 'runtime')) {
      throw new ToolError('Path is outside the sandbox scope');
    }
    const destination = this.#writable(to);
    await this.#context.workspace.copy(source.location, destination.location, options);
    const workspace = this.#context.workspace;
    return `Copied ${workspace.reference(source.location)} to ${workspace.reference(destination.location)}`;
  }

  /** Files and directories beneath `path` whose relative path matches a glob, as references (directories end in `/`). */
  async glob(pattern: string, options: GlobOptions & SandboxCallOptions = {}): Promise<string[]> {
    this.#require('filesystem_list');
    const base = this.#locate(options.path ?? '.');
    return globEntries(this.#searchContext(base.location, options.signal), pattern);
  }

  /** Lines matching a pattern (a linear-time regular expression, ERE syntax; or literal with `fixedStrings`) in the UTF-8 files beneath `path`. */
  async grep(pattern: string, options: GrepOptions & SandboxCallOptions = {}): Promise<GrepResult> {
    this.#require('filesystem_read');
    const base = this.#locate(options.path ?? '.');
    return grepFiles(this.#searchContext(base.location, options.signal), pattern, options);
  }

  /**
   * A narrower, non-owning view: drop paths, turn read-write into read-only,
   * drop capabilities. It can never widen this view (`CapabilityError`).
   * A string selects a profile the sandbox was configured with.
   *
   * @example
   * const reviewer = sandbox.scope({ files: { source: 'read_only' }, runtimePaths: [], capabilities: ['filesystem_read', 'filesystem_list'] });
   */
  scope(options: SandboxScopeOptions | string = {}): SandboxScope {
    const resolved = typeof options === 'string' ? this.#context.profile(options) : options;
    const context = this.#context;
    const grants = resolved.files === undefined && resolved.runtimePaths === undefined
      ? context.grants
      : narrowGrants(context.grants, resolved, context.internals.namedPaths());
    const capabilities = normalizeFeatures(resolved.capabilities, context.capabilities);
    for (const feature of capabilities) {
      if (!context.capabilities.has(feature)) throw new CapabilityError(`sandbox scope cannot add capability ${feature}`);
    }
    return new SandboxScope({ ...context, grants, capabilities });
  }

  /**
   * The view a runtime (a code-mode engine) uses: runtime-only grants are
   * reachable here, with the same access rules. Never hand it to tools.
   */
  runtimeView(): SandboxScope {
    return new SandboxScope({ ...this.#context, view: 'runtime' });
  }

  /** Makes the view ready for a run; a scope owns nothing, so this returns it as it is. */
  async open(_options: { run?: RunHandle } = {}): Promise<this> {
    return this;
  }

  /** Releases what the view owns; a scope owns nothing and never closes its parent. */
  async close(): Promise<void> {}

  #require(feature: SandboxFeature): void {
    if (!this.#context.owner.alive) throw new UseAfterDisposeError('The sandbox');
    if (!this.#context.capabilities.has(feature)) throw new ToolError(`Sandbox scope does not allow ${featureWords(feature)}`);
  }

  #locate(path: unknown): Located {
    if (typeof path !== 'string') throw new ToolError('Path must be text');
    const location = this.#context.workspace.resolve(path);
    const access = effectiveAccess(this.#context.grants, location);
    if (!access || (this.#context.view === 'tools' && access.hidden)) throw new ToolError('Path is outside the sandbox scope');
    return { location, access };
  }

  #entryPoint(path: unknown): Located {
    const located = this.#locate(path);
    const { base } = located.access;
    if (base.volume === located.location.volume && base.path === located.location.path) {
      throw new ToolError('Path must identify a sandbox entry');
    }
    return located;
  }

  #readable(path: unknown): { data: Uint8Array } {
    const { location } = this.#entryPoint(path);
    const node = this.#context.internals.node(location);
    if (!node) throw new ToolError('Path does not exist');
    if (node.kind !== 'file') throw new ToolError('Path is not a file');
    if (node.data.length > this.#context.limits.readBytes) throw new SandboxLimitError('readBytes', 'File exceeds the read limit');
    return node;
  }

  #writable(path: unknown): Located {
    const located = this.#entryPoint(path);
    if (located.access.access !== 'read_write') throw new ToolError('Sandbox scope is read-only');
    return located;
  }

  async #write(location: WorkspaceLocation, content: string | Uint8Array): Promise<string> {
    if (typeof content !== 'string' && !(content instanceof Uint8Array)) throw new ToolError('Content must be text or bytes');
    const data = typeof content === 'string' ? encoder.encode(content) : content;
    if (data.length > this.#context.limits.writeBytes) throw new SandboxLimitError('writeBytes', 'Content exceeds the write limit');
    await this.#context.workspace.writeFile(location, data);
    return `Wrote ${data.length} bytes to ${this.#context.workspace.reference(location)}`;
  }

  #assertNothingProtectedBeneath(location: WorkspaceLocation): void {
    const beneath = grantsBeneath(this.#context.grants, location);
    if (beneath.some((grant) => grant.access === 'read_only')) throw new ToolError('Sandbox scope is read-only');
    if (beneath.length > 0) throw new ToolError('Workspace paths cannot be removed');
  }

  #entries(path: unknown): WorkspaceEntry[] {
    const { location } = this.#locate(path);
    const node = this.#context.internals.node(location);
    if (!node) throw new ToolError('Path does not exist');
    if (node.kind !== 'directory') throw new ToolError('Path is not a directory');
    const names = [...node.entries.keys()].filter((name) => this.#visible({ volume: location.volume, path: joinPath(location.path, name) }));
    if (names.length > this.#context.limits.listEntries) throw new SandboxLimitError('listEntries', 'Directory exceeds the listing limit');
    return sortNames(names).map((name) => this.#entry({ volume: location.volume, path: joinPath(location.path, name) }, node.entries.get(name)!));
  }

  /** The granted directories beneath a path no grant covers, LittleGhost's "virtual children". */
  #virtualChildren(path: unknown): string[] | undefined {
    if (typeof path !== 'string') return undefined;
    const location = this.#context.workspace.resolve(path);
    if (effectiveAccess(this.#context.grants, location)) return undefined;
    const children = new Set<string>();
    for (const grant of this.#context.grants.own) {
      const target = grant.location;
      if (target.volume !== location.volume || target.path === location.path || !isWithin(target.path, location.path)) continue;
      if (!this.#visible(target)) continue;
      const rest = location.path === '' ? target.path : target.path.slice(location.path.length + 1);
      children.add(`${rest.split('/')[0]}/`);
    }
    if (children.size === 0) throw new ToolError('Path is outside the sandbox scope');
    return sortNames([...children]);
  }

  #visible(location: WorkspaceLocation): boolean {
    const access = effectiveAccess(this.#context.grants, location);
    return access !== undefined && (this.#context.view === 'runtime' || !access.hidden);
  }

  #entry(location: WorkspaceLocation, node: TreeNode): WorkspaceEntry {
    return {
      name: baseName(location.path),
      reference: this.#context.workspace.reference(location),
      kind: node.kind,
      size: node.kind === 'file' ? node.data.length : node.entries.size,
      modifiedAt: node.modifiedAt,
    };
  }

  #searchContext(base: WorkspaceLocation, signal: AbortSignal | undefined) {
    const context = this.#context;
    return {
      base,
      limits: context.limits,
      node: (location: WorkspaceLocation) => context.internals.node(location),
      visible: (location: WorkspaceLocation) => this.#visible(location),
      reference: (location: WorkspaceLocation) => context.workspace.reference(location),
      checkpoint: () => throwIfAborted(signal),
    };
  }
}

/** A narrowed, non-owning view of a sandbox: it opens and closes nothing. */
export class SandboxScope extends SandboxView {}

export type { GrepMatch };
