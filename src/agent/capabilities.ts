import { ConfigurationError } from '../error/configuration-error.ts';
import { registryCapability } from '../registry/registry-capability.ts';
import { sessionCapability } from '../session/session-capability.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { AskOptions } from './invocation.ts';
import { CAPABILITY_ORDER, RUN_CAPABILITY_VERSION } from './run-capability.ts';
import type { RunCapability } from './run-capability.ts';

/**
 * The capabilities of one run, in set-up order: the core's own (sessions when
 * the run has a session store, the tool registry when the agent names tool ids
 * or the run locks a snapshot) and the agent's `capabilities`, sorted by
 * `order` (stable, so equal orders keep declaration order). Checks the
 * contract version, unique names and every `requires`.
 */
export function capabilitiesFor(definition: Readonly<AgentDefinition>, options: Readonly<AskOptions>): RunCapability[] {
  const declared: RunCapability[] = [];
  if (options.sessions) declared.push(sessionCapability(options.sessions));
  const registry = registryCapability(definition, options);
  if (registry) declared.push(registry);
  declared.push(...(definition.capabilities ?? []));
  return orderCapabilities(declared);
}

/** Sorts capabilities by `order` (stable) and checks versions, names and requirements. */
export function orderCapabilities(capabilities: readonly RunCapability[]): RunCapability[] {
  const names = new Set<string>();
  for (const capability of capabilities) assertCapability(capability, names);
  const sorted = capabilities
    .map((capability, index) => ({ capability, index, order: capability.order ?? CAPABILITY_ORDER.application }))
    .sort((left, right) => left.order - right.order || left.index - right.index)
    .map((entry) => entry.capability);
  const before = new Set<string>();
  for (const capability of sorted) {
    for (const needed of capability.requires ?? []) {
      if (before.has(needed)) continue;
      throw new ConfigurationError(
        names.has(needed)
          ? `Capability ${capability.name} requires ${needed}, which is set up after it (order ${capability.order ?? CAPABILITY_ORDER.application})`
          : `Capability ${capability.name} requires the ${needed} capability: add it to the agent's capabilities`,
      );
    }
    before.add(capability.name);
  }
  return sorted;
}

function assertCapability(capability: RunCapability, names: Set<string>): void {
  if (typeof capability !== 'object' || capability === null || typeof capability.name !== 'string') {
    throw new ConfigurationError('Capabilities must be RunCapability objects (use the factories: workspace(), codeMode(), skills(), …)');
  }
  if (capability.version !== RUN_CAPABILITY_VERSION) {
    throw new ConfigurationError(`Capability ${capability.name} speaks ${String(capability.version)}, not ${RUN_CAPABILITY_VERSION}`);
  }
  if (capability.order !== undefined && !Number.isFinite(capability.order)) {
    throw new ConfigurationError(`Capability ${capability.name} has an invalid order: ${String(capability.order)}`);
  }
  if (names.has(capability.name)) throw new ConfigurationError(`Capability ${capability.name} is declared twice`);
  names.add(capability.name);
}
