import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import { subagents } from 'ghostlight/subagents';

const library = defineTool({
  name: 'research_library',
  description: 'Search the research library for notes on a topic.',
  input: v.strictObject({ topic: v.string() }),
  execute: ({ topic }) => `3 notes on ${topic}`,
});

const researcher = defineAgent({ name: 'researcher', model: createOfflineDemoModel(), tools: [library] });

const lead = defineAgent({
  name: 'lead',
  model: createOfflineDemoModel(),
  instructions: 'Split the request into topics, spawn one researcher per topic, wait for all of them, then combine.',
  capabilities: [subagents([{ kind: 'researcher', agent: researcher, description: 'Researches one topic' }])],
});

const run = await lead.ask('Research solar panel prices and wind turbine rivals');
console.log(run.response); // "Here is what my 2 subagents found …"
for (const event of run.events) if (event.type === 'subagent') console.log(event.event, event.subagentId, event.status);
