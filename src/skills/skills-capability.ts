import type { RunCapability } from '../agent/run-capability';
import { ConfigurationError } from '../error/configuration-error';
import type { ToolBinding } from '../tool/tool-binding';
import { isWorkspaceReference } from './resource-root';
import { SkillCatalog } from './skill-catalog';
import { isSkillSource } from './skill-source';
import type { SkillSource } from './skill-source';
import type { SkillPath, SkillsConfig, SkillsOptions } from './skills-options';

/** The run options the skills capability reads (application configuration of one run). */
export interface SkillsRunOptions {
  /** Skill roots used when the agent's `skills` names none. */
  readonly skillPaths?: readonly SkillPath[];
  /** The model-visible root of skill files (`workspace://skills`, `/skills`). */
  readonly skillResourceRoot?: string;
}

const DEFAULT_PATHS: readonly SkillPath[] = ['workspace://skills'];

/**
 * Skills as a run capability: loads the catalog when the run starts, then
 * appends the `<available_skills>` discovery text to the instructions and
 * adds the `skills` tool. An empty catalog adds neither. The agent's own
 * tools are unchanged: a skill's `allowed-tools` grants nothing.
 */
export function skillsCapability(config: SkillsConfig, runOptions: SkillsRunOptions = {}): RunCapability | undefined {
  if (config === false) return undefined;
  return {
    name: 'skills',
    async setup({ binding }) {
      let catalog: SkillCatalog;
      if (config instanceof SkillCatalog) catalog = config;
      else {
        const options = config === true ? {} : config;
        catalog = await loadForRun(options, runOptions, binding);
        await options.onLoad?.(catalog, binding);
      }
      if (catalog.empty) return;
      return { tools: [catalog.tool()], instructions: catalog.discoveryPrompt() };
    },
  };
}

async function loadForRun(options: SkillsOptions, runOptions: SkillsRunOptions, binding: ToolBinding): Promise<SkillCatalog> {
  const paths = typeof options.paths === 'function' ? await options.paths(binding) : (options.paths ?? runOptions.skillPaths ?? DEFAULT_PATHS);
  if (!Array.isArray(paths)) throw new ConfigurationError('Skill paths must be a list');
  const sources = paths.map((path) => toSource(path, binding));
  return SkillCatalog.load({
    sources,
    only: options.only,
    maxSkills: options.maxSkills,
    maxFileBytes: options.maxFileBytes,
    maxResourceFiles: options.maxResourceFiles,
    resourceRoot: runOptions.skillResourceRoot ?? options.resourceRoot,
  });
}

function toSource(path: SkillPath, _binding: ToolBinding): SkillSource {
  if (isSkillSource(path)) return path;
  if (typeof path === 'string' && isWorkspaceReference(path)) {
    throw new ConfigurationError(`Skill path ${path} needs a workspace on the run`);
  }
  throw new ConfigurationError(`Skill paths must be SkillSources or workspace:// references: ${String(path)}`);
}
