import { ConfigurationError } from '../error/configuration-error.ts';
import { RunFailedError } from '../error/run-failed-error.ts';
import type { Tool } from '../tool/tool.ts';
import { isPlainObject } from '../util/json.ts';
import { descriptorHash } from './tool-descriptor.ts';

/**
 * The locked schema surface of a set of tools: each tool's id (or name) and
 * the hash of its descriptor. Plain JSON, so a plan can store it and a later
 * run can be checked against it (`capabilitySnapshot` in the ask options).
 */
export interface CapabilitySnapshot {
  readonly version: 'capability-snapshot-v1';
  /** Tool id → `sha256:<hex>` of its canonical descriptor. */
  readonly tools: Readonly<Record<string, string>>;
}

/**
 * Hashes the descriptors of `tools` into a snapshot.
 *
 * @example
 * const snapshot = await createCapabilitySnapshot(registry.resolve(['atlas.search']));
 */
export async function createCapabilitySnapshot(tools: readonly Tool[]): Promise<CapabilitySnapshot> {
  const entries = await Promise.all(tools.map(async (tool) => [tool.id ?? tool.name, await descriptorHash(tool)] as const));
  return Object.freeze({ version: 'capability-snapshot-v1' as const, tools: Object.freeze(Object.fromEntries(entries)) });
}

/** Throws a `ConfigurationError` unless `value` is a capability snapshot (e.g. one read back from storage). */
export function assertCapabilitySnapshot(value: unknown): asserts value is CapabilitySnapshot {
  const tools = isPlainObject(value) ? value.tools : undefined;
  if (
    !isPlainObject(value) ||
    value.version !== 'capability-snapshot-v1' ||
    !isPlainObject(tools) ||
    !Object.values(tools).every((hash) => typeof hash === 'string' && hash.startsWith('sha256:'))
  ) {
    throw new ConfigurationError('capabilitySnapshot must be a capability-snapshot-v1 value made by createCapabilitySnapshot');
  }
}

/**
 * A guard that fails the run when a tool about to run no longer matches the
 * snapshot: a tool named in the snapshot whose live descriptor hash differs,
 * or a registry tool the snapshot does not lock. Tools that are neither (the
 * application's inline tools, code mode's controls) are not checked.
 */
export function snapshotGuard(snapshot: CapabilitySnapshot): (tool: Tool) => Promise<void> {
  return async (tool) => {
    const key = tool.id ?? tool.name;
    const locked = Object.hasOwn(snapshot.tools, key) ? snapshot.tools[key] : undefined;
    if (locked === undefined) {
      if (tool.id === undefined) return;
      throw new RunFailedError('capability_drift', `Tool ${key} is not in the capability snapshot`);
    }
    if ((await descriptorHash(tool)) !== locked) {
      throw new RunFailedError('capability_drift', `Tool ${key} no longer matches the capability snapshot`);
    }
  };
}
