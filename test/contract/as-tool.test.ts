import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { asTool, defineAgent, defineTool } from 'ghostlight';
import type { Run, ToolCallResult } from 'ghostlight';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

const results = (run: Run): ToolCallResult[] => run.steps.flatMap((step) => step.toolResults);
const ask = (input: string, id?: string) => ({ ...(id ? { id } : {}), name: 'classify', input: { input } });

describe('agents as tools (SPEC A14 agent_as_tool)', () => {
  it('takes { input }, returns the text, and describes itself by default', async () => {
    const child = respondingModel((call) => ({ text: `positive: ${lastUserText(call)}` }));
    const classify = asTool(defineAgent({ name: 'classify', model: child }));
    expect(classify.name).toBe('classify');
    expect(classify.description).toBe('Delegate a task to classify.');
    expect(classify.input.jsonSchema).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false });
    const model = scriptedModel([{ toolCalls: [ask('I love it')] }, { text: 'It is positive.' }]);
    const run = await defineAgent({ name: 'support', model, tools: [classify] }).ask('How does the customer feel?', { actorId: 'ada', context: { accountId: 'a1' } });
    expect(results(run)[0]).toMatchObject({ status: 'success', value: 'positive: I love it' });
    expect(child.calls[0]!.prompt.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('returns the structured value of a structured agent', async () => {
    const triage = defineAgent({
      name: 'triage',
      model: scriptedModel([{ toolCalls: [{ name: 'triage_result', input: { urgent: true } }] }]),
      modelCapabilities: { nativeStructuredOutput: false, tools: true, toolChoice: true },
      result: { schema: v.strictObject({ urgent: v.boolean() }), name: 'triage_result', strategy: 'tool' },
    });
    const tool = asTool(triage, { name: 'triage_request', description: 'Triage one request.' });
    const run = await defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'triage_request', input: { input: 'Help!' } }] }, { text: 'ok' }]), tools: [tool] }).ask('x');
    expect(results(run)[0]!.value).toEqual({ urgent: true });
    expect(tool.description).toBe('Triage one request.');
  });

  it('passes the working state through and the caller identity down', async () => {
    const seen: unknown[] = [];
    const bump = defineTool({
      name: 'bump',
      description: 'Count.',
      input: v.strictObject({}),
      execute: (_input, binding) => {
        seen.push(binding.run.invocation.actorId, binding.run.invocation.context.accountId);
        binding.state.count = ((binding.state.count as number | undefined) ?? 0) + 1;
        return binding.state.count;
      },
    });
    const counter = defineAgent({ name: 'counter', model: scriptedModel([{ toolCalls: [{ name: 'bump', input: {} }] }, { text: 'counted' }]), tools: [bump] });
    const run = await defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'counter', input: { input: 'count' } }] }, { text: 'ok' }]), tools: [asTool(counter)] }).ask('x', {
      actorId: 'ada',
      context: { accountId: 'a1' },
      state: { count: 41 },
    });
    expect(run.state).toEqual({ count: 42 });
    expect(seen).toEqual(['ada', 'a1']);
  });

  it('starts every call fresh without preserveContext, and calls may overlap', async () => {
    let active = 0;
    let overlapped = false;
    const child = respondingModel(async (call) => {
      active++;
      if (active > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 10));
      active--;
      return { text: `users: ${call.prompt.filter((message) => message.role === 'user').length}` };
    });
    const tool = asTool(defineAgent({ name: 'classify', model: child }));
    const model = scriptedModel([{ toolCalls: [ask('one', 'a'), ask('two', 'b')] }, { toolCalls: [ask('three')] }, { text: 'ok' }]);
    const run = await defineAgent({ name: 'lead', model, tools: [tool] }).ask('x');
    expect(results(run).map((result) => result.value)).toEqual(['users: 1', 'users: 1', 'users: 1']);
    expect(overlapped).toBe(true);
  });

  it('keeps the history between calls of one run and serialises them with preserveContext; a new run starts fresh', async () => {
    let active = 0;
    let overlapped = false;
    const child = respondingModel(async (call) => {
      active++;
      if (active > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      return { text: `heard ${call.prompt.filter((message) => message.role === 'user').map((message) => JSON.stringify(message.content)).length}` };
    });
    const tool = asTool(defineAgent({ name: 'classify', model: child }), { preserveContext: true });
    const lead = () => defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [ask('one', 'a'), ask('two', 'b')] }, { toolCalls: [ask('three')] }, { text: 'ok' }]), tools: [tool] });
    const run = await lead().ask('x');
    expect(results(run).map((result) => result.value)).toEqual(['heard 1', 'heard 2', 'heard 3']);
    expect(overlapped).toBe(false);
    const later = await lead().ask('y');
    expect(results(later)[0]!.value).toBe('heard 1');
  });

  it('gives the model a tool error for a failed delegated run, and overrides the model and tools', async () => {
    const broken = defineAgent({ name: 'broken', model: respondingModel(() => ({ error: new Error('secret provider detail') })), settings: { maxRetries: 0 } });
    const run = await defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'broken', input: { input: 'x' } }] }, { text: 'ok' }]), tools: [asTool(broken)] }).ask('x');
    expect(results(run)[0]).toMatchObject({ status: 'error' });
    expect(results(run)[0]!.content).toContain('broken failed:');
    expect(results(run)[0]!.content).not.toContain('secret provider detail');

    const lookup = defineTool({ name: 'lookup', description: 'Look up.', input: v.strictObject({}), execute: () => 'looked up' });
    const replacement = scriptedModel([{ toolCalls: [{ name: 'lookup', input: {} }] }, { text: 'from the override' }]);
    const overridden = asTool(broken, { name: 'fixed', model: replacement, tools: [lookup] });
    const fixed = await defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'fixed', input: { input: 'x' } }] }, { text: 'ok' }]), tools: [overridden] }).ask('x');
    expect(results(fixed)[0]!.value).toBe('from the override');
    expect(replacement.calls[0]!.tools!.map((tool) => (tool as { name: string }).name)).toEqual(['lookup']);
    expect(() => asTool(defineAgent({ name: 'has.dot', model: replacement }))).toThrow('give asTool a name');
    expect(() => asTool({} as never)).toThrow('asTool needs an agent made by defineAgent or an assembly');
  });

  it('ends the caller cancelled when the caller is cancelled during a delegated run', async () => {
    const controller = new AbortController();
    const slow = respondingModel(() => {
      setTimeout(() => controller.abort(), 10);
      return { text: 'late', delayMs: 5_000 };
    });
    const run = await defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'slow', input: { input: 'x' } }] }]), tools: [asTool(defineAgent({ name: 'slow', model: slow }))] }).ask('x', {
      signal: controller.signal,
    });
    expect(run.outcome).toBe('cancelled');
  });
});
