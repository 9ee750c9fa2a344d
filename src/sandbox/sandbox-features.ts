import { PolicyError } from '../workspace/policy-error.ts';

/**
 * An operation a sandbox or scope may expose. The filesystem tools need the
 * `filesystem_*` features; the virtual shell needs `process_execute`.
 */
export type SandboxFeature = 'filesystem_read' | 'filesystem_list' | 'filesystem_write' | 'filesystem_replace' | 'process_execute';

/** Every feature the virtual sandbox implements. */
export const SANDBOX_FEATURES: readonly SandboxFeature[] = Object.freeze([
  'filesystem_read',
  'filesystem_list',
  'filesystem_write',
  'filesystem_replace',
  'process_execute',
]);

const ALIASES: Readonly<Record<string, SandboxFeature>> = {
  read: 'filesystem_read',
  list: 'filesystem_list',
  write: 'filesystem_write',
  replace: 'filesystem_replace',
  execute: 'process_execute',
};

/** Resolves a feature name or its short alias (`read`, `list`, `write`, `replace`, `execute`). */
export function normalizeFeature(name: string): SandboxFeature {
  const feature = ALIASES[name] ?? name;
  if (!(SANDBOX_FEATURES as readonly string[]).includes(feature)) throw new PolicyError(`unknown sandbox capability: ${name}`);
  return feature as SandboxFeature;
}

/** Resolves a list of features (`undefined` means all of `fallback`). */
export function normalizeFeatures(names: readonly string[] | undefined, fallback: ReadonlySet<SandboxFeature>): ReadonlySet<SandboxFeature> {
  if (names === undefined) return fallback;
  if (!Array.isArray(names)) throw new PolicyError('sandbox capabilities must be a list of feature names');
  return new Set(names.map(normalizeFeature));
}

/** How a missing feature is reported to the model: `Sandbox scope does not allow filesystem write`. */
export function featureWords(feature: SandboxFeature): string {
  return feature.replaceAll('_', ' ');
}
