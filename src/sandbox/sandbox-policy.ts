import { PolicyError } from '../workspace/policy-error.ts';

/** How a named path may be used: read only, or read and write. */
export type AccessMode = 'read_only' | 'read_write';

/**
 * Which named workspace paths a sandbox grants (`root` is the workspace
 * root). `files` are visible to the filesystem tools and the shell;
 * `runtimePaths` only to runtimes that ask for the runtime view (code-mode
 * engines), never listed or readable through tools. Nested grants are
 * allowed: the deepest grant covering a path decides, and a runtime-only
 * grant beneath a file grant hides its subtree from tools.
 */
export interface SandboxPolicy {
  /** Tool-visible grants. Default `{ root: 'read_only' }`. */
  readonly files?: Readonly<Record<string, AccessMode>>;
  /** Runtime-only grants. Default none. */
  readonly runtimePaths?: Readonly<Record<string, AccessMode>>;
}

/** One grant: a named path, its access and who sees it. */
export interface SandboxGrant {
  /** `root` or a named workspace path. */
  readonly name: string;
  /** The access it gives. */
  readonly access: AccessMode;
  /** `files` (tools and runtimes) or `runtime` (runtimes only). */
  readonly visibility: 'files' | 'runtime';
}

const ACCESS_MODES: readonly string[] = ['read_only', 'read_write'];

/** Normalises a policy into grants; unknown keys and access modes are a `PolicyError`. */
export function policyGrants(policy: SandboxPolicy | undefined): SandboxGrant[] {
  if (policy !== undefined && (typeof policy !== 'object' || policy === null)) throw new PolicyError('sandbox policy must be an object');
  const unknown = Object.keys(policy ?? {}).filter((key) => key !== 'files' && key !== 'runtimePaths');
  if (unknown.length > 0) throw new PolicyError(`unknown sandbox policy options: ${unknown.join(', ')}`);
  return [
    ...grantsOf(policy?.files ?? { root: 'read_only' }, 'files'),
    ...grantsOf(policy?.runtimePaths ?? {}, 'runtime'),
  ];
}

/** Checks one access mode. */
export function accessMode(value: unknown, label: string): AccessMode {
  if (typeof value !== 'string' || !ACCESS_MODES.includes(value)) {
    throw new PolicyError(`${label} access must be one of read_only, read_write`);
  }
  return value as AccessMode;
}

function grantsOf(values: Readonly<Record<string, AccessMode>>, visibility: SandboxGrant['visibility']): SandboxGrant[] {
  const label = visibility === 'files' ? 'files' : 'runtimePaths';
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new PolicyError(`sandbox ${label} must be an object`);
  return Object.entries(values).map(([name, access]) => ({ name, access: accessMode(access, label), visibility }));
}
