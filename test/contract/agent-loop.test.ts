import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, isTerminalEvent } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

const weather = defineTool({
  name: 'weather',
  description: 'Get the weather for a city.',
  input: v.strictObject({ city: v.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny' }),
});

describe('the agent loop', () => {
  it('answers without tools and streams the text', async () => {
    const model = scriptedModel([{ text: 'Hello there, friend.' }]);
    const agent = defineAgent({ name: 'greeter', model, instructions: 'Be brief.' });
    const stream = agent.stream('Hi');
    const events: GhostlightEvent[] = [];
    for await (const event of stream) events.push(event);
    const run = await stream.run;

    expect(run.outcome).toBe('completed');
    expect(run.response).toBe('Hello there, friend.');
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('')).toBe('Hello there, friend.');
    expect(events[0]?.type).toBe('run-start');
    expect(events.filter(isTerminalEvent)).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('run-stop');
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index));
    expect(model.calls[0]?.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('runs a tool, sends its result back, and answers', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'weather', input: { city: 'Paris' } }] },
      { text: 'It is sunny in Paris.' },
    ]);
    const agent = defineAgent({ name: 'forecaster', model, tools: [weather] });
    const run = await agent.ask('Weather in Paris?');

    expect(run.outcome).toBe('completed');
    expect(run.response).toBe('It is sunny in Paris.');
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolCallId: 'c1', status: 'success', value: { city: 'Paris', forecast: 'sunny' } });
    const toolMessage = model.calls[1]?.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content[0]).toMatchObject({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'weather',
      output: { type: 'text', value: '{"city":"Paris","forecast":"sunny"}' },
    });
    const types = run.events.map((event) => event.type);
    expect(types.indexOf('tool-start')).toBeLessThan(types.indexOf('tool-stop'));
    expect(types.at(-1)).toBe('run-stop');
    expect(model.calls[0]?.tools?.[0]).toMatchObject({ name: 'weather', description: 'Get the weather for a city.' });
  });

  it('reports usage in AI SDK 7 shape and meanings (totals include cache and reasoning), summed over turns', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'weather', input: { city: 'Oslo' } }] }, { text: 'Done.' }]);
    const run = await defineAgent({ name: 'usage', model, tools: [weather] }).ask('Oslo?');
    expect(run.usage).toEqual({
      inputTokens: 20,
      inputTokenDetails: { noCacheTokens: 16, cacheReadTokens: 4, cacheWriteTokens: 0 },
      outputTokens: 10,
      outputTokenDetails: { textTokens: 8, reasoningTokens: 2 },
      totalTokens: 30,
    });
  });

  it('passes identity and context to tools through the binding, never from the model', async () => {
    const seen: unknown[] = [];
    const whoAmI = defineTool({
      name: 'who_am_i',
      description: 'Report the caller.',
      input: { type: 'object', properties: { actorId: { type: 'string' } }, additionalProperties: false },
      execute: (_input, binding) => {
        seen.push({ actorId: binding.run.invocation.actorId, context: binding.run.invocation.context, caller: binding.caller });
        return 'ok';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'who_am_i', input: { actorId: 'attacker' } }] }, { text: 'Done.' }]);
    await defineAgent({ name: 'identity', model, tools: [whoAmI] }).ask('who?', { actorId: 'user-7', context: { accountId: 'acct-1' } });
    expect(seen).toEqual([{ actorId: 'user-7', context: { accountId: 'acct-1' }, caller: 'model' }]);
  });

  it('continues a conversation from history and returns the new messages', async () => {
    const model = scriptedModel([{ text: 'Second answer.' }]);
    const history = [
      { role: 'user' as const, content: 'First question' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'First answer.' }] },
    ];
    const run = await defineAgent({ name: 'memory', model }).ask('Second question', { history });
    expect(model.calls[0]?.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(run.newMessages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(run.messages).toHaveLength(4);
  });

  it('resumes an event stream from a sequence number', async () => {
    const model = scriptedModel([{ text: 'one two three' }]);
    const stream = defineAgent({ name: 'resume', model }).stream('go');
    const run = await stream.run;
    const replay: GhostlightEvent[] = [];
    for await (const event of stream.events(3)) replay.push(event);
    expect(replay[0]?.sequence).toBe(3);
    expect(replay.at(-1)?.type).toBe('run-stop');
    expect(replay.length).toBe(run.events.length - 3);
  });

  it('gives a JSON summary without application-only fields', async () => {
    const model = scriptedModel([{ text: 'Hi.' }]);
    const run = await defineAgent({ name: 'summary', model }).ask('Hi', { metadata: { secret: 'x' } });
    const summary = JSON.parse(JSON.stringify(run)) as Record<string, unknown>;
    expect(summary).toMatchObject({ outcome: 'completed', response: 'Hi.', agent: 'summary' });
    expect(JSON.stringify(summary)).not.toContain('secret');
  });
});

describe('the contract harness', () => {
  it('runs in the runtime its project names', async () => {
    const { testRuntime } = await import('#test-runtime');
    const expected = typeof navigator !== 'undefined' && navigator.userAgent.includes('Chrome') && typeof (globalThis as { process?: unknown }).process === 'undefined'
      ? 'chromium'
      : typeof (globalThis as { WebSocketPair?: unknown }).WebSocketPair === 'function'
        ? 'workerd'
        : 'node';
    expect(testRuntime.name).toBe(expected);
  });
});
