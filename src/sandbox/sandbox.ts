import type { RunHandle } from '../tool/tool-binding.ts';
import { PolicyError } from '../workspace/policy-error.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { workspaceInternals } from '../workspace/workspace-internals.ts';
import { normalizeFeatures, SANDBOX_FEATURES } from './sandbox-features.ts';
import { resolveGrants } from './sandbox-grants.ts';
import { resolveSandboxLimits } from './sandbox-limits.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import { policyGrants } from './sandbox-policy.ts';
import type { SandboxPolicy } from './sandbox-policy.ts';
import { SandboxView } from './sandbox-view.ts';
import type { SandboxContext, SandboxScopeOptions } from './sandbox-view.ts';

/** A named scope a sandbox can hand out: options, or a function of the workspace and policy. */
export type SandboxProfile =
  | SandboxScopeOptions
  | ((context: { readonly workspace: Workspace; readonly policy: SandboxPolicy }) => SandboxScopeOptions);

/** Options of a {@link Sandbox}. */
export interface SandboxOptions {
  /** The workspace whose files the sandbox governs. */
  workspace: Workspace;
  /** Which named paths are granted, and how. Default `{ files: { root: 'read_only' } }`. */
  policy?: SandboxPolicy;
  /** Per-operation limits over the defaults. */
  limits?: Partial<SandboxLimits>;
  /** Named scopes for `sandbox.scope('name')`. */
  profiles?: Readonly<Record<string, SandboxProfile>>;
  /** Features to expose (default: every filesystem feature and `process_execute` for the virtual shell). */
  capabilities?: readonly string[];
}

const PROFILE_KEYS = ['files', 'runtimePaths', 'capabilities'];
const DEFAULT_POLICY: SandboxPolicy = { files: { root: 'read_only' } };

/**
 * Governs what model-driven code may do with a workspace: which named paths
 * are visible and writable (grants), which operations exist (capabilities),
 * and how large one read, write, listing or output may be (limits). The
 * virtual sandbox enforces all of it by construction: there is no host
 * filesystem and no process behind it.
 *
 * Tools receive the run's sandbox (or a scope of it) through their binding.
 * A run closes the sandbox it created, before its workspace.
 *
 * @example
 * const workspace = await Workspace.open({ paths: { skills: { store: skillsStore } } });
 * const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', skills: 'read_only' } } });
 * await sandbox.write('notes/today.md', '# Today'); // 'Wrote 7 bytes to notes/today.md'
 * await sandbox.write('workspace://skills/x.md', 'no'); // throws ToolError('Sandbox scope is read-only')
 */
export class Sandbox extends SandboxView implements AsyncDisposable {
  readonly #state: { alive: boolean };
  readonly #policy: SandboxPolicy;

  constructor(options: SandboxOptions) {
    const state = { alive: true };
    super(sandboxContext(options, state));
    this.#state = state;
    this.#policy = Object.freeze({ ...(options.policy ?? DEFAULT_POLICY) });
  }

  /** The policy as configured. */
  get policy(): SandboxPolicy {
    return this.#policy;
  }

  /** Whether the sandbox is still usable (until `close`). */
  get alive(): boolean {
    return this.#state.alive;
  }

  /** Makes the sandbox ready for a run (the virtual sandbox has nothing to start). */
  override async open(_options: { run?: RunHandle } = {}): Promise<this> {
    return this;
  }

  /** Ends the sandbox: later operations through it or its scopes throw `UseAfterDisposeError`. */
  override async close(): Promise<void> {
    this.#state.alive = false;
  }

  /** Closes the sandbox (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function sandboxContext(options: SandboxOptions, owner: { alive: boolean }): SandboxContext {
  const workspace = options?.workspace;
  if (!workspace) throw new PolicyError('sandbox needs a workspace');
  const internals = workspaceInternals(workspace);
  const policy = options.policy ?? DEFAULT_POLICY;
  const profiles = options.profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null) throw new PolicyError('sandbox profiles must be an object');
  return {
    workspace,
    internals,
    grants: { own: resolveGrants(policyGrants(policy), internals.namedPaths()), overlays: [] },
    capabilities: normalizeFeatures(options.capabilities, new Set(SANDBOX_FEATURES)),
    limits: resolveSandboxLimits(options.limits),
    view: 'tools',
    owner,
    profile: (name) => {
      const declared = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
      if (declared === undefined) throw new PolicyError(`unknown sandbox scope profile: ${name}`);
      const values = typeof declared === 'function' ? declared({ workspace, policy }) : declared;
      if (typeof values !== 'object' || values === null) throw new PolicyError('sandbox scope profile must be an object');
      const unknown = Object.keys(values).filter((key) => !PROFILE_KEYS.includes(key));
      if (unknown.length > 0) throw new PolicyError(`unknown sandbox scope profile options: ${unknown.join(', ')}`);
      return values;
    },
  };
}
