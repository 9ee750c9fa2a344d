import { artifactsCapability } from '../artifacts/artifacts-capability';
import { codeModeCapability } from '../codemode/code-mode-capability';
import { registryCapability } from '../registry/registry-capability';
import type { AgentDefinition } from './agent-definition';
import type { AskOptions } from './invocation';
import { sessionCapability } from '../session/session-capability';
import type { RunCapability } from './run-capability';
import { skillsCapability } from '../skills/skills-capability';
import { workspaceCapabilities } from '../workspace/workspace-capability';

/**
 * The capabilities a run sets up, in order: the built-in ones an agent
 * declares through its definition fields, then the agent's own
 * `capabilities`. Order matters: the workspace opens before anything that
 * stores files, and code mode arranges the tools last.
 */
export function capabilitiesFor(definition: Readonly<AgentDefinition>, options: Readonly<AskOptions>): RunCapability[] {
  const capabilities: RunCapability[] = [];
  capabilities.push(...workspaceCapabilities(definition, options));
  if (options.sessions) capabilities.push(sessionCapability(options.sessions));
  const registry = registryCapability(definition, options);
  if (registry) capabilities.push(registry);
  const artifacts = artifactsCapability(definition.artifacts);
  if (artifacts) capabilities.push(artifacts);
  if (definition.skills) capabilities.push(skillsCapability(definition.skills, options)!);
  if (definition.codeMode) capabilities.push(codeModeCapability(definition.codeMode === true ? {} : definition.codeMode));
  capabilities.push(...(definition.capabilities ?? []));
  return capabilities;
}
