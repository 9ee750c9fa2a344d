import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, MemorySessionStore } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import { subagents } from 'ghostlight/subagents';

const library = defineTool({
  name: 'research_library',
  description: 'Search the research library for notes on a topic.',
  input: v.strictObject({ topic: v.string() }),
  execute: async ({ topic }) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return `3 notes on ${topic.replace(/^Research /, '')}`;
  },
});

function team() {
  const researcher = defineAgent({ name: 'researcher', model: createOfflineDemoModel(), tools: [library] });
  return defineAgent({
    name: 'lead',
    model: createOfflineDemoModel(),
    capabilities: [subagents([{ agent: researcher, description: 'Researches one topic in the library' }])],
  });
}

describe('the offline demo model drives subagents (keyless, deterministic)', () => {
  it('fans out to one researcher per topic at once, waits for them and answers from their responses', async () => {
    const run = await team().ask('Research solar panel prices and wind turbine rivals');
    expect(run.outcome).toBe('completed');
    expect(run.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['spawn_subagent', 'spawn_subagent'], ['wait_for_subagents'], []]);
    expect(run.steps[0]!.toolCalls.map((call) => call.input)).toEqual([
      { kind: 'researcher', task_name: 'solar_panel_prices', task: 'Research solar panel prices', mode: 'async' },
      { kind: 'researcher', task_name: 'wind_turbine_rivals', task: 'Research wind turbine rivals', mode: 'async' },
    ]);
    expect(run.response).toContain('Here is what my 2 subagents found (offline demo model):');
    expect(run.response).toContain('/root/solar_panel_prices: Here is what I found (offline demo model): - research_library: 3 notes on solar panel prices');
    const started = run.events.filter((event) => event.type === 'subagent' && (event.event === 'turn_started' || event.event === 'turn_finished')).map((event) => (event as { event: string }).event);
    expect(started).toEqual(['turn_started', 'turn_started', 'turn_finished', 'turn_finished']);
  });

  it('follows up with a persisted subagent in a later run of the session', async () => {
    const sessions = new MemorySessionStore();
    const options = { sessions, sessionId: 'demo-chat', actorId: 'ada' };
    await team().ask('Research solar panel prices and wind turbine rivals', options);
    const later = await team().ask('Follow up on the earlier research', options);
    expect(later.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['list_subagents'], ['send_message_to_subagent'], []]);
    expect(later.steps[1]!.toolResults[0]!.value).toMatchObject({ status: 'finished', turn: 2 });
    expect(later.response).toContain('Here is what my subagent found');
  });
});
