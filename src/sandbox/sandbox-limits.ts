import { PolicyError } from '../workspace/policy-error.ts';

/** Per-operation bounds a sandbox enforces. */
export interface SandboxLimits {
  /** The largest file one read returns. Default 1,000,000 bytes. */
  readonly readBytes: number;
  /** The largest content one write accepts. Default 1,000,000 bytes. */
  readonly writeBytes: number;
  /** The most entries one listing or search returns. Default 10,000. */
  readonly listEntries: number;
  /** The most bytes one shell stream or search result holds. Default 1,000,000. */
  readonly outputBytes: number;
}

/** The defaults (SPEC A24, from LittleGhost's sandbox limits). */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  readBytes: 1_000_000,
  writeBytes: 1_000_000,
  listEntries: 10_000,
  outputBytes: 1_000_000,
});

/** Merges `values` over the defaults; unknown names and non-positive values are a `PolicyError`. */
export function resolveSandboxLimits(values: Partial<SandboxLimits> | undefined): SandboxLimits {
  if (values !== undefined && (typeof values !== 'object' || values === null)) throw new PolicyError('sandbox limits must be an object');
  const unknown = Object.keys(values ?? {}).filter((key) => !(key in DEFAULT_SANDBOX_LIMITS));
  if (unknown.length > 0) throw new PolicyError(`unknown sandbox limits: ${unknown.join(', ')}`);
  const resolved: Record<string, number> = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [name, value] of Object.entries(values ?? {})) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new PolicyError(`sandbox ${name} must be an integer`);
    if (value <= 0) throw new PolicyError(`sandbox ${name} must be positive`);
    resolved[name] = value;
  }
  return Object.freeze(resolved as unknown as SandboxLimits);
}
