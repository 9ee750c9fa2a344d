import { ConfigurationError } from '../error/configuration-error.ts';

/** Storage limits of one workspace (every volume counted together). */
export interface WorkspaceLimits {
  /** The largest file, in bytes. Default 33,554,432 (32 MiB, the artifact limit). */
  readonly maxFileBytes: number;
  /** The bytes of every file together. Default 104,857,600 (100 MiB). */
  readonly maxTotalBytes: number;
  /** Files and directories together. Default 100,000. */
  readonly maxEntries: number;
}

/** The default workspace limits. */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = Object.freeze({
  maxFileBytes: 32 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
  maxEntries: 100_000,
});

/** Merges `limits` over the defaults; unknown keys and non-positive integers are a `ConfigurationError`. */
export function resolveWorkspaceLimits(limits: Partial<WorkspaceLimits> | undefined): WorkspaceLimits {
  const resolved: Record<string, number> = { ...DEFAULT_WORKSPACE_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!(key in DEFAULT_WORKSPACE_LIMITS)) throw new ConfigurationError(`unknown workspace limits: ${key}`);
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) <= 0) {
      throw new ConfigurationError(`workspace ${key} must be a positive integer`);
    }
    resolved[key] = value as number;
  }
  return Object.freeze(resolved as unknown as WorkspaceLimits);
}
