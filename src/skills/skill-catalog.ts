import { ConfigurationError } from '../error/configuration-error.ts';
import type { Tool } from '../tool/tool.ts';
import { htmlEscape } from './html-escape.ts';
import { listSkillResources } from './list-skill-resources.ts';
import { loadSkills } from './load-skills.ts';
import type { LoadedSkill } from './load-skills.ts';
import { normalizeResourceRoot } from './resource-root.ts';
import type { Skill } from './skill.ts';
import type { SkillDiagnostic } from './skill-diagnostic.ts';
import { isSkillSource } from './skill-source.ts';
import type { SkillSource } from './skill-source.ts';
import { createSkillsTool } from './skills-tool.ts';

const catalogMarker = Symbol.for('ghostlight.skill-catalog');

/** Default limits of a catalog (the seeds' numbers). */
export const SKILL_CATALOG_DEFAULTS = Object.freeze({ maxSkills: 1_000, maxFileBytes: 1_000_000, maxResourceFiles: 20 });

/** Options of {@link SkillCatalog.load}. */
export interface SkillCatalogOptions {
  /** Where skills come from, in order: later sources override earlier skills of the same name. */
  readonly sources: readonly SkillSource[];
  /** Expose only these skill names. */
  readonly only?: readonly string[] | undefined;
  /** At most this many `SKILL.md` files, invalid ones included (default 1,000). */
  readonly maxSkills?: number | undefined;
  /** At most this many bytes per `SKILL.md` (default 1,000,000). */
  readonly maxFileBytes?: number | undefined;
  /** List at most this many resource files per skill (default 20). */
  readonly maxResourceFiles?: number | undefined;
  /**
   * The model-visible root that replaces every source's location (`/skills`,
   * `workspace://skills`): where the application makes the same files
   * readable. Resources are then listed by full location.
   */
  readonly resourceRoot?: string | undefined;
}

/**
 * The skills an agent can discover: loaded once from application-chosen
 * sources, shown to the model as a short catalog, loaded in full through the
 * `skills` tool. Invalid `SKILL.md` files are skipped, not fatal; every skip
 * and warning is in {@link diagnostics}.
 *
 * @example
 * const catalog = await SkillCatalog.load({ sources: [bundledSkillSource(files)] });
 * catalog.names; // ['refund_guide']
 * catalog.diagnostics; // [{ severity: 'warning', code: 'name-format', … }]
 */
export class SkillCatalog {
  readonly [catalogMarker] = true;
  readonly #skills: ReadonlyMap<string, LoadedSkill>;
  readonly #diagnostics: readonly SkillDiagnostic[];
  readonly #maxResourceFiles: number;
  readonly #resourceRoot: string | undefined;
  #tool: Tool<unknown, string> | undefined;

  private constructor(skills: ReadonlyMap<string, LoadedSkill>, diagnostics: readonly SkillDiagnostic[], maxResourceFiles: number, resourceRoot: string | undefined) {
    this.#skills = skills;
    this.#diagnostics = Object.freeze(diagnostics.map((diagnostic) => Object.freeze(diagnostic)));
    this.#maxResourceFiles = maxResourceFiles;
    this.#resourceRoot = resourceRoot;
  }

  /**
   * Loads a catalog. Throws `ConfigurationError` for a missing source root or
   * bad options, and `SkillLimitError` when over `maxSkills` or `maxFileBytes`.
   */
  static async load(options: SkillCatalogOptions): Promise<SkillCatalog> {
    if (!Array.isArray(options.sources) || !options.sources.every(isSkillSource)) {
      throw new ConfigurationError('Skill sources must implement skill-source-v1');
    }
    if (options.only !== undefined && !(Array.isArray(options.only) && options.only.every((name) => typeof name === 'string'))) {
      throw new ConfigurationError('Skill only must be a list of skill names');
    }
    const resourceRoot = options.resourceRoot === undefined ? undefined : normalizeResourceRoot(options.resourceRoot);
    const { skills, diagnostics } = await loadSkills({
      sources: options.sources,
      only: options.only,
      maxSkills: positive(options.maxSkills, 'maxSkills'),
      maxFileBytes: positive(options.maxFileBytes, 'maxFileBytes'),
      resourceRoot,
    });
    return new SkillCatalog(skills, diagnostics, positive(options.maxResourceFiles, 'maxResourceFiles'), resourceRoot);
  }

  /** The skill names, in lookup order. */
  get names(): string[] {
    return [...this.#skills.keys()];
  }

  /** The skills, in lookup order. */
  get skills(): Skill[] {
    return [...this.#skills.values()].map((loaded) => loaded.skill);
  }

  /** Every skip and warning of the load, in file order. */
  get diagnostics(): readonly SkillDiagnostic[] {
    return this.#diagnostics;
  }

  /** Whether the catalog holds no skill (an agent then gets no prompt text and no tool). */
  get empty(): boolean {
    return this.#skills.size === 0;
  }

  /** The normalised resource root the catalog was loaded with, if any. */
  get resourceRoot(): string | undefined {
    return this.#resourceRoot;
  }

  /** The source a skill was loaded from. */
  sourceOf(name: string): SkillSource | undefined {
    return this.#skills.get(name)?.source;
  }

  /** The named skill, or `undefined`. */
  get(name: string): Skill | undefined {
    return this.#skills.get(name)?.skill;
  }

  /**
   * The discovery text for the model's instructions: `<available_skills>` with
   * each skill's name, description and location, HTML-escaped; `''` when empty.
   */
  discoveryPrompt(): string {
    if (this.#skills.size === 0) return '';
    const lines = ['<available_skills>'];
    for (const { skill } of this.#skills.values()) {
      lines.push(
        '<skill>',
        `<name>${htmlEscape(skill.name)}</name>`,
        `<description>${htmlEscape(skill.description)}</description>`,
        `<location>${htmlEscape(skill.location)}</location>`,
        '</skill>',
      );
    }
    lines.push('</available_skills>');
    return lines.join('\n');
  }

  /**
   * A skill's resource files (every file of its folder but `SKILL.md`, the
   * conventional folders first, three folders deep), by full location when the model can read them, else
   * relative to the skill; past `maxResourceFiles` a truncation line ends the list.
   */
  async resources(name: string): Promise<string[]> {
    const loaded = this.#skills.get(name);
    if (!loaded) throw new ConfigurationError(`Unknown skill: ${name}`);
    const relative = await listSkillResources(loaded.source, loaded.skill.folder);
    const base = loaded.skill.location.slice(0, loaded.skill.location.lastIndexOf('/'));
    const files = this.#resourceRoot !== undefined || loaded.source.readable ? relative.map((path) => `${base}/${path}`) : relative;
    if (files.length <= this.#maxResourceFiles) return files;
    return [...files.slice(0, this.#maxResourceFiles), `... (truncated at ${this.#maxResourceFiles} files)`];
  }

  /**
   * What the `skills` tool returns for a skill: its instructions, then
   * `Allowed tools`, `Compatibility` and `Location`, then its resources.
   */
  async format(name: string): Promise<string> {
    const skill = this.get(name);
    if (!skill) throw new ConfigurationError(`Unknown skill: ${name}`);
    const metadata: string[] = [];
    if (skill.allowedTools.length > 0) metadata.push(`Allowed tools: ${skill.allowedTools.join(', ')}`);
    if (skill.compatibility !== undefined) metadata.push(`Compatibility: ${skill.compatibility}`);
    metadata.push(`Location: ${skill.location}`);
    const parts = [skill.instructions, `\n---\n${metadata.join('\n')}`];
    const resources = await this.resources(name);
    if (resources.length > 0) parts.push(`\nAvailable resources:\n${resources.map((path) => `  ${path}`).join('\n')}`);
    return parts.join('\n');
  }

  /** Whether `value` is a SkillCatalog (also one from another copy of the package). */
  static isInstance(value: unknown): value is SkillCatalog {
    return typeof value === 'object' && value !== null && catalogMarker in value;
  }

  /** The model-callable `skills` tool over this catalog. */
  tool(): Tool<unknown, string> {
    this.#tool ??= createSkillsTool(this);
    return this.#tool;
  }
}

function positive(value: number | undefined, name: keyof typeof SKILL_CATALOG_DEFAULTS): number {
  if (value === undefined) return SKILL_CATALOG_DEFAULTS[name];
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`${name} must be a positive integer`);
  return value;
}
