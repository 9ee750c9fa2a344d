import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { ToolError } from '../tool/tool-error.ts';
import type { SkillCatalog } from './skill-catalog.ts';

/** The `skills` tool's description (the seeds' words). */
export const SKILLS_TOOL_DESCRIPTION = [
  'Activate a skill to load its full instructions.',
  '',
  'Use this tool to load the complete instructions for a skill listed in',
  'the available_skills section of your system prompt.',
].join('\n');

/**
 * The `skills` tool of a catalog: `{ skill_name }` in, the skill's
 * instructions, metadata and resource list out. An unknown name is a
 * `ToolError` "Unknown skill: NAME". Loading a skill grants nothing: its
 * `allowed-tools` is shown, never added to the run's tools.
 */
export function createSkillsTool(catalog: SkillCatalog): Tool<unknown, string> {
  return defineTool({
    name: 'skills',
    description: SKILLS_TOOL_DESCRIPTION,
    input: {
      type: 'object',
      properties: { skill_name: { type: 'string', description: 'Name of the skill to activate.' } },
      required: ['skill_name'],
      additionalProperties: false,
    },
    execute: async (value) => {
      const input = value as { skill_name: string };
      if (!catalog.get(input.skill_name)) throw new ToolError(`Unknown skill: ${input.skill_name}`);
      return catalog.format(input.skill_name);
    },
  });
}
