import { assertKnownKeys } from '../agent/option-keys.ts';
import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import { checkSkillMount } from './check-skill-mount.ts';
import type { MountSandbox, MountWorkspace } from './check-skill-mount.ts';
import { isWorkspaceReference, normalizeResourceRoot } from './resource-root.ts';
import { SkillCatalog } from './skill-catalog.ts';
import { isSkillSource } from './skill-source.ts';
import type { SkillSource } from './skill-source.ts';
import type { SkillPath, SkillsConfig, SkillsOptions } from './skills-options.ts';
import { WorkspaceSkillSource } from './workspace-skill-source.ts';
import type { SkillWorkspace } from './workspace-skill-source.ts';

declare module '../agent/invocation.ts' {
  interface AskOptions {
    /** Skill roots for agents whose `skills()` names none (application configuration, never the request). */
    skillPaths?: readonly SkillPath[] | undefined;
    /** The model-visible root of skill files, e.g. `workspace://skills` (see docs/skills.md). */
    skillResourceRoot?: string | undefined;
  }
}

/** The run options the skills capability reads (application configuration of one run). */
export interface SkillsRunOptions {
  /** Skill roots used when the agent's `skills()` names none. */
  readonly skillPaths?: readonly SkillPath[] | undefined;
  /** The model-visible root of skill files (`workspace://skills`, `/skills`). */
  readonly skillResourceRoot?: string | undefined;
}

/** The run's workspace and sandbox as the skills capability sees them. */
interface RunFiles {
  readonly workspace: (SkillWorkspace & MountWorkspace) | undefined;
  readonly sandbox: MountSandbox | undefined;
}

const DEFAULT_PATHS: readonly SkillPath[] = ['workspace://skills'];

/**
 * Skills as a run capability: loads the catalog when the run starts, then
 * appends the `<available_skills>` discovery text to the instructions and
 * adds the `skills` tool (instructions that place the `skillsPrompt` prompt
 * local themselves, e.g. a prompt view, get it only there). An empty catalog
 * adds neither. The agent's own
 * tools are unchanged: a skill's `allowed-tools` grants nothing. Skills read
 * from the run's workspace must be read-only for tools (a writable grant on
 * them is a `ConfigurationError`).
 *
 * @example
 * import { bundledSkillSource, skills } from 'ghostlight/skills';
 * defineAgent({ name: 'helper', model, capabilities: [skills({ paths: [bundledSkillSource(files)] })] });
 */
const SKILLS_OPTION_KEYS = ['paths', 'only', 'maxSkills', 'maxFileBytes', 'maxResourceFiles', 'resourceRoot', 'onLoad'];

export function skills(config: SkillsConfig = {}): RunCapability {
  if (typeof config !== 'object' || config === null) throw new ConfigurationError('skills() takes skills options or a SkillCatalog');
  if (!SkillCatalog.isInstance(config)) assertKnownKeys(config, SKILLS_OPTION_KEYS, 'skills()');
  return {
    version: 'run-capability-v1',
    name: 'skills',
    order: CAPABILITY_ORDER.content + 50,
    optionKeys: ['skillPaths', 'skillResourceRoot'],
    async setup({ binding, options: runOptions }) {
      // The workspace and sandbox capabilities (when the agent has them) are set up before this one.
      const bound = binding as Partial<RunFiles>;
      const files: RunFiles = { workspace: bound.workspace, sandbox: bound.sandbox };
      let catalog: SkillCatalog;
      if (SkillCatalog.isInstance(config)) {
        catalog = config;
        if (catalog.resourceRoot !== undefined && isWorkspaceReference(catalog.resourceRoot)) await checkResourceRoot(catalog, catalog.resourceRoot, files);
      } else {
        const options = config as SkillsOptions;
        catalog = await loadForRun(options, runOptions, binding, files);
        await options.onLoad?.(catalog, binding);
      }
      if (catalog.empty) return;
      const prompt = catalog.discoveryPrompt();
      // A prompt view may place the catalog itself (the `skillsPrompt` local); then it is not appended again.
      return { tools: [catalog.tool()], instructions: prompt, promptLocals: { skillsPrompt: prompt }, instructionsLocal: 'skillsPrompt' };
    },
  };
}

async function loadForRun(options: SkillsOptions, runOptions: SkillsRunOptions, binding: ToolBinding, files: RunFiles): Promise<SkillCatalog> {
  const paths = typeof options.paths === 'function' ? await options.paths(binding) : (options.paths ?? runOptions.skillPaths ?? DEFAULT_PATHS);
  if (!Array.isArray(paths)) throw new ConfigurationError('Skill paths must be a list');
  const rawRoot = runOptions.skillResourceRoot ?? options.resourceRoot;
  const resourceRoot = rawRoot === undefined ? undefined : normalizeResourceRoot(rawRoot);
  if (resourceRoot !== undefined && isWorkspaceReference(resourceRoot)) checkSkillMount(resourceRoot, files.workspace, files.sandbox, true);
  const sources = paths.map((path) => toSource(path, files));
  const catalog = await SkillCatalog.load({
    sources,
    only: options.only,
    maxSkills: options.maxSkills,
    maxFileBytes: options.maxFileBytes,
    maxResourceFiles: options.maxResourceFiles,
    resourceRoot,
  });
  if (resourceRoot !== undefined && isWorkspaceReference(resourceRoot)) await checkResourceRoot(catalog, resourceRoot, files);
  return catalog;
}

function toSource(path: SkillPath, files: RunFiles): SkillSource {
  if (path instanceof WorkspaceSkillSource && path.workspace === files.workspace) {
    checkSkillMount(path.location, files.workspace, files.sandbox, false);
    return path;
  }
  if (isSkillSource(path)) return path;
  if (typeof path === 'string' && isWorkspaceReference(path)) {
    if (!files.workspace) throw new ConfigurationError(`Skill path ${path} needs a workspace on the run`);
    const readable = checkSkillMount(path, files.workspace, files.sandbox, false);
    return new WorkspaceSkillSource(files.workspace, path, { readable });
  }
  throw new ConfigurationError(`Skill paths must be SkillSources or workspace:// references: ${String(path)}`);
}

/**
 * A `workspace://` resource root must show the model the files the catalog
 * read: each skill's `SKILL.md` must be at `<root>/<folder>/SKILL.md` in the
 * run's workspace with the same bytes.
 */
async function checkResourceRoot(catalog: SkillCatalog, resourceRoot: string, files: RunFiles): Promise<void> {
  const readable = checkSkillMount(resourceRoot, files.workspace, files.sandbox, true);
  if (!readable || !files.workspace) return;
  const workspace = files.workspace;
  for (const skill of catalog.skills) {
    const source = catalog.sourceOf(skill.name)!;
    if (source instanceof WorkspaceSkillSource && source.workspace === workspace && source.location === resourceRoot) continue;
    const [mine, mounted] = await Promise.all([
      source.read(`${skill.folder}/SKILL.md`).then(bytesOf),
      workspace.readFile(`${resourceRoot}/${skill.folder}/SKILL.md`).catch(() => undefined),
    ]);
    if (!mounted || !sameBytes(mine, mounted)) throw new ConfigurationError('workspace resource_root must map to each skill path');
  }
}

const bytesOf = (content: Uint8Array | string) => (typeof content === 'string' ? new TextEncoder().encode(content) : content);
const sameBytes = (left: Uint8Array, right: Uint8Array) => left.byteLength === right.byteLength && left.every((byte, index) => byte === right[index]);
