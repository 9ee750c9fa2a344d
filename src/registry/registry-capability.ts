import type { AgentDefinition } from '../agent/agent-definition.ts';
import type { AskOptions } from '../agent/invocation.ts';
import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { MissingToolError } from '../tool/missing-tool-error.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import { assertCapabilitySnapshot, snapshotGuard } from './capability-snapshot.ts';

/**
 * The run capability behind `toolRegistry` and `capabilitySnapshot`: before
 * anything else is set up it checks that every tool id the agent names is in
 * the run's registry (`MissingToolError` otherwise, so the run never starts),
 * and with a snapshot it adds the guard that fails the run with
 * `RunFailedError` (`capability_drift`) when a locked tool has changed.
 * Dormant (undefined) when the run uses neither.
 */
export function registryCapability(definition: Readonly<AgentDefinition>, options: Readonly<AskOptions>): RunCapability | undefined {
  const ids = namedIds(definition.tools ?? []);
  const snapshot = options.capabilitySnapshot;
  if (ids.length === 0 && snapshot === undefined) return undefined;
  if (snapshot !== undefined) assertCapabilitySnapshot(snapshot);
  return {
    version: 'run-capability-v1',
    name: 'tool-registry',
    order: CAPABILITY_ORDER.registry,
    optionKeys: ['toolRegistry', 'capabilitySnapshot'],
    setup() {
      const registry = options.toolRegistry;
      for (const id of ids) {
        if (!registry) throw new MissingToolError(id, { message: `Agent ${definition.name} names tool ${id}, but the run has no tool registry` });
        if (!registry.has(id)) throw new MissingToolError(id);
      }
      return snapshot === undefined ? undefined : { guards: [snapshotGuard(snapshot)] };
    },
  };
}

function namedIds(declarations: readonly ToolDeclaration[]): string[] {
  const ids: string[] = [];
  const visit = (declaration: ToolDeclaration): void => {
    if (typeof declaration === 'string') ids.push(declaration);
    else if (Array.isArray(declaration)) (declaration as readonly ToolDeclaration[]).forEach(visit);
  };
  declarations.forEach(visit);
  return ids;
}
