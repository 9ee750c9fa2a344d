import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent/agent.ts';
import { defineTool } from '../tool/define-tool.ts';
import { createOfflineDemoModel } from './offline-demo-model.ts';

describe('the offline demo model', () => {
  const lookup = defineTool({
    name: 'help_center_lookup',
    description: 'Look up a help center entry by topic.',
    input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
    execute: ({ topic }) => (topic === 'shipping' ? 'Three to five days.' : 'Within 30 days.'),
  });

  it('calls the tool that matches the question, with schema-valid arguments, then answers from the result', async () => {
    const run = await defineAgent({ name: 'demo', model: createOfflineDemoModel(), tools: [lookup] }).ask('How long does shipping take? Check the help center.');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'help_center_lookup', input: { topic: 'shipping' } });
    expect(run.response).toContain('Three to five days.');
    expect(run.events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(1);
  });

  it('estimates tokens without serialising file bytes (a 16 MiB attachment counts as a fixed amount)', async () => {
    const model = createOfflineDemoModel();
    const bytes = new Uint8Array(16 * 1024 * 1024);
    const result = await model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'What is in this file?' }, { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: bytes } }] }],
    } as never);
    expect(result.usage.inputTokens.total).toBeGreaterThan(0);
    expect(result.usage.inputTokens.total).toBeLessThan(1_000);
  });

  it('answers plainly, and says what it is, when nothing matches', async () => {
    const run = await defineAgent({ name: 'demo', model: createOfflineDemoModel(), tools: [lookup] }).ask('Tell me a joke');
    expect(run.steps[0]?.toolCalls).toEqual([]);
    expect(run.response).toContain('offline demo model');
  });
});

describe('the offline demo model with structured results', () => {
  const schema = v.strictObject({ category: v.picklist(['billing', 'delivery']), urgent: v.boolean(), summary: v.string() });

  it('looks things up, then submits the result tool (tool strategy)', async () => {
    const lookup = defineTool({ name: 'help_center_lookup', description: 'Look up shipping or billing help.', input: v.strictObject({ topic: v.picklist(['shipping', 'billing']) }), execute: () => 'ok' });
    const run = await defineAgent({ name: 'triage', model: createOfflineDemoModel(), tools: [lookup], result: { schema, name: 'support_triage', strategy: 'tool' } }).ask('Urgent: my delivery is late, what about shipping?');
    expect(run.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['help_center_lookup'], ['support_triage']]);
    expect(run.output).toEqual({ category: 'delivery', urgent: true, summary: 'Urgent: my delivery is late, what about shipping?' });
  });

  it('writes JSON matching the response format (provider strategy)', async () => {
    const run = await defineAgent({ name: 'triage', model: createOfflineDemoModel(), modelCapabilities: { nativeStructuredOutput: true }, result: { schema, strategy: 'provider' } }).ask('A billing question');
    expect(run.output).toEqual({ category: 'billing', urgent: false, summary: 'A billing question' });
  });
});
