import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { subagents } from 'ghostlight/subagents';
import type { LanguageModel } from 'ai';

/** A tiny offline research library: notes per keyword (deterministic demo data). */
const NOTES: Record<string, string> = {
  solar: 'Module prices fell about 40% in two years; utility-scale installs lead growth.',
  wind: 'Offshore wind faces higher financing costs; turbine makers consolidate.',
  battery: 'Lithium iron phosphate cells dominate new grid storage.',
  price: 'Prices track polysilicon and shipping costs with a lag of one or two quarters.',
  rival: 'Three manufacturers hold most of the market; two new entrants compete on price.',
};

/** Searches the library; slow on purpose (it stands for a remote search), and it stops when the run is cancelled. */
export const researchLibrary = defineTool({
  name: 'research_library',
  description: 'Search the research library for notes on a topic.',
  input: v.strictObject({ topic: v.pipe(v.string(), v.minLength(1)) }),
  execute: ({ topic }, binding) =>
    new Promise((resolve, reject) => {
      const words = topic.toLowerCase();
      const found = Object.entries(NOTES).filter(([key]) => words.includes(key)).map(([, note]) => note);
      const timer = setTimeout(() => resolve({ topic: topic.replace(/^Research /, ''), notes: found.length > 0 ? found : ['No notes yet on this topic.'] }), 600);
      binding.signal.addEventListener('abort', () => (clearTimeout(timer), reject(binding.signal.reason)), { once: true });
    }),
});

/**
 * The research team: a lead agent that spawns one researcher subagent per topic, concurrently, waits for
 * them and combines their findings. Each researcher has only the library tool. With a session store the
 * researchers' conversations persist, so a later message in the same session can follow up with them.
 */
export function createResearchTeam(model: LanguageModel): Agent {
  const researcher = defineAgent({
    name: 'researcher',
    model,
    instructions: 'You research one topic. Search the research library, then report what you found in two sentences.',
    tools: [researchLibrary],
  });
  return defineAgent({
    name: 'research',
    model,
    instructions:
      'You lead a research team. Split the request into independent topics, spawn one researcher subagent per topic (async), ' +
      'wait for all of them, then combine their findings into one answer.',
    capabilities: [subagents([{ kind: 'researcher', agent: researcher, description: 'Researches one topic in the research library' }])],
  });
}
