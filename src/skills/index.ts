/**
 * Skills: SKILL.md catalogs (Agent Skills) from bundles, memory or the run's
 * workspace, offered to the model through discovery text and the `skills` tool.
 *
 * @module ghostlight/skills
 */
export { SkillCatalog, SKILL_CATALOG_DEFAULTS } from './skill-catalog.ts';
export type { SkillCatalogOptions } from './skill-catalog.ts';
export type { Skill } from './skill.ts';
export type { SkillDiagnostic, SkillDiagnosticCode } from './skill-diagnostic.ts';
export { SkillLimitError } from './skill-limit-error.ts';
export { isSkillSource } from './skill-source.ts';
export type { SkillSource, SkillSourceEntry } from './skill-source.ts';
export { MemorySkillSource } from './memory-skill-source.ts';
export type { MemorySkillSourceOptions } from './memory-skill-source.ts';
export { WorkspaceSkillSource } from './workspace-skill-source.ts';
export type { SkillWorkspace } from './workspace-skill-source.ts';
export { bundledSkillFiles, bundledSkillSource } from './bundled-skill-source.ts';
export type { BundledSkillFile, BundledSkillSourceOptions } from './bundled-skill-source.ts';
export { skills } from './skills-capability.ts';
export type { SkillsRunOptions } from './skills-capability.ts';
export type { SkillPath, SkillsConfig, SkillsOptions } from './skills-options.ts';
export { SKILLS_TOOL_DESCRIPTION } from './skills-tool.ts';
export { parseSkill } from './parse-skill.ts';
export type { ParsedSkill } from './parse-skill.ts';
