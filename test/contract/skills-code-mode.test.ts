import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool } from 'ghostlight';
import { MemorySkillSource, skills } from 'ghostlight/skills';
import { scriptedModel } from '../support/scripted-model';
import { codeMode, defaultCodeEngine } from 'ghostlight/code-mode';

const engine = defaultCodeEngine();

const skillSource = new MemorySkillSource({
  'refund_guide/SKILL.md': '---\nname: refund_guide\ndescription: Decide which refund rule applies.\n---\nLook up the topic "refunds" and quote the window.\n',
});

const lookup = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute: ({ topic }) => (topic === 'refunds' ? 'Refunds are available within 30 days of purchase.' : 'Standard shipping takes 3-5 days.'),
});

describe('skills in code mode', () => {
  it('a program loads a skill through tools.skills and follows it; calls go through the run executor', async () => {
    const source = [
      'const guide = await tools.skills({ skill_name: "refund_guide" });',
      'const topic = /topic "(\\w+)"/.exec(guide)[1];',
      'return await tools.help_center_lookup({ topic });',
    ].join('\n');
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Within 30 days.' }]);
    const agent = defineAgent({ name: 'coder', model, instructions: 'Help.', tools: [lookup], capabilities: [skills({ paths: [skillSource] }), codeMode({ engine })] });
    const run = await agent.ask('Refund?');

    expect(run.outcome).toBe('completed');
    expect(JSON.parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({ status: 'completed', value: 'Refunds are available within 30 days of purchase.' });
    const system = String(model.calls[0]?.prompt[0]?.content);
    expect(system).toContain('<name>refund_guide</name>');
    expect(system).toContain('skills(args: {');
    expect(model.calls[0]?.tools?.map((tool) => tool.name).sort()).toEqual(['exec', 'stop', 'wait']);
    const starts = run.events.filter((event) => event.type === 'tool-start') as Array<{ toolName: string; caller: string }>;
    expect(starts.map((event) => [event.toolName, event.caller])).toEqual([['skills', 'code'], ['help_center_lookup', 'code']]);
  });

  it('the skills tool can stay model-facing with except', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    await defineAgent({ name: 'coder', model, tools: [lookup], capabilities: [skills({ paths: [skillSource] }), codeMode({ engine, except: ['skills'] })] }).ask('hi');
    expect(model.calls[0]?.tools?.map((tool) => tool.name).sort()).toEqual(['exec', 'skills', 'stop', 'wait']);
  });
});
