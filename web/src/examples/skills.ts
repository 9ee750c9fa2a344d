import { defineAgent } from 'ghostlight';
import { bundledSkillSource, SkillCatalog, skills } from 'ghostlight/skills';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import { helpCenterLookup, orderStatus } from '../../../worker/demo-agent';
import type { ExampleAgent } from './example';

/** The skills bundled into the playground at build time (Vite's import.meta.glob; no filesystem at run time). */
export const playgroundSkills = bundledSkillSource(import.meta.glob('../../skills/**', { query: '?raw', import: 'default', eager: true }), {
  root: '../../skills',
});

/** The catalog the Skills tab lists (with any diagnostics). */
export const loadPlaygroundCatalog = () => SkillCatalog.load({ sources: [playgroundSkills] });

/** The offline model's plan: load the skill that fits, follow its steps with the tools, answer. */
function respond(request: DemoRequest): DemoTurn {
  const skill = /refund/i.test(request.userText) ? 'refund_guide' : /late|delay|where is/i.test(request.userText) ? 'shipping_delay' : undefined;
  if (!skill) return { text: 'Ask me about a refund or a late delivery: I have a documented procedure for each. (offline demo model)' };
  const loaded = request.toolResults.find((result) => result.toolName === 'skills');
  if (!loaded) return { toolCalls: [{ toolName: 'skills', input: { skill_name: skill } }] };
  const lookups = request.toolResults.filter((result) => result.toolName !== 'skills');
  if (lookups.length === 0) {
    const order = request.userText.match(/\d+/)?.[0];
    return {
      toolCalls: skill === 'refund_guide'
        ? [{ toolName: 'help_center_lookup', input: { topic: 'refunds' } }]
        : [...(order ? [{ toolName: 'order_status', input: { order_number: order } }] : []), { toolName: 'help_center_lookup', input: { topic: 'shipping' } }],
    };
  }
  const facts = lookups.map((result) => `- ${result.toolName}: ${result.content}`).join('\n');
  return { text: `Following the ${skill} skill:\n${facts}\nMissing facts: the purchase date and the item category. (offline demo model)` };
}

/** An agent that discovers skills in its prompt and loads one only when a task needs it. */
export const skillsExample: ExampleAgent = {
  respond,
  create: (model) =>
    defineAgent({
      name: 'skills',
      model,
      instructions: 'Use an available skill when a request needs a documented procedure.',
      tools: [helpCenterLookup, orderStatus],
      capabilities: [skills({ paths: [playgroundSkills] })],
    }),
};
