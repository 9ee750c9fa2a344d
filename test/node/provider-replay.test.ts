import { readFileSync } from 'node:fs';
import { createOpenAI } from '@ai-sdk/openai';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent, defineTool } from 'ghostlight';
import { chunkLines, splitStreams, startFixtureServer } from '../support/fixture-server';
import { anthropicText, chatText } from '../support/fixture-fetch';
import { calculatorTool as calculator } from '../support/calculator-tool';
import { hasRealworld, readRealworld } from '../support/realworld';


const fixture = ['provider-fixtures', 'openai', 'openai-reasoning-encrypted-content.1.chunks.txt'];
let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe.skipIf(!hasRealworld(...fixture))('a recorded real OpenAI Responses stream through @ai-sdk/openai', () => {
  it('runs the four-step calculator loop and sends the right tool results back', async () => {
    const streams = splitStreams(chunkLines(readRealworld(...fixture)), (line) => line.includes('"type":"response.created"'));
    expect(streams).toHaveLength(4);
    const server = await startFixtureServer(streams.map((events) => ({ kind: 'sse' as const, events })));
    close = server.close;
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
    const agent = defineAgent({ name: 'calculator', model: openai('gpt-5.1-codex-max'), tools: [calculator] });

    const stream = agent.stream('Compute ((12 + 7) * 3) * 10 step by step with the calculator.');
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const run = await stream.run;

    expect(run.outcome).toBe('completed');
    expect(run.response).toBe('The final result is **570**.');
    expect(run.steps.map((step) => step.toolCalls.map((call) => call.input))).toEqual([
      [{ a: 12, b: 7, op: 'add' }],
      [{ a: 19, b: 3, op: 'multiply' }],
      [{ a: 57, b: 10, op: 'multiply' }],
      [],
    ]);
    expect(run.steps.flatMap((step) => step.toolResults.map((result) => result.value))).toEqual([19, 57, 570]);
    expect(types).toContain('reasoning-delta');
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses', '/v1/responses']);

    // What our loop sent back: each request carries the previous calls' outputs.
    const outputs = (body: unknown) =>
      ((body as { input: Array<{ type?: string; output?: unknown }> }).input ?? [])
        .filter((item) => item.type === 'function_call_output')
        .map((item) => item.output);
    expect(outputs(server.requests[1]!.body)).toEqual(['19']);
    expect(outputs(server.requests[2]!.body)).toEqual(['19', '57']);
    expect(outputs(server.requests[3]!.body)).toEqual(['19', '57', '570']);
    const firstBody = server.requests[0]!.body as { stream: boolean; tools: Array<{ name: string; parameters: unknown }> };
    expect(firstBody.stream).toBe(true);
    expect(firstBody.tools[0]).toMatchObject({ name: 'calculator', parameters: { type: 'object', required: ['a', 'b', 'op'] } });
  });
});

const groq = ['provider-fixtures', 'groq', 'groq-tool-call.chunks.txt'];
const openaiText = ['provider-fixtures', 'openai', 'openai-text.chunks.txt'];

describe.skipIf(!hasRealworld(...groq) || !hasRealworld(...openaiText))('recorded chat-completions streams through @ai-sdk/openai-compatible', () => {
  it('answers a real tool call with empty arguments with a precise validation error, then finishes', async () => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const server = await startFixtureServer([
      { kind: 'sse', events: chunkLines(readRealworld(...groq)) },
      { kind: 'sse', events: chunkLines(readRealworld(...openaiText)) },
    ]);
    close = server.close;
    let executed = false;
    const weather = defineTool({
      name: 'weather',
      description: 'Get the weather for a city.',
      input: v.strictObject({ city: v.string() }),
      execute: () => {
        executed = true;
        return 'sunny';
      },
    });
    const provider = createOpenAICompatible({ name: 'groq', baseURL: server.baseURL, apiKey: 'test-key' });
    const run = await defineAgent({ name: 'chat', model: provider.chatModel('llama-3.3-70b-versatile'), tools: [weather] }).ask('Weather?');

    expect(run.outcome).toBe('completed');
    expect(executed).toBe(false);
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'weather', status: 'error', content: 'Invalid tool input: $.city is required' });
    expect(run.response.length).toBeGreaterThan(0);
    const sent = server.requests[1]!.body as { messages: Array<{ role: string; content?: unknown; tool_call_id?: string }> };
    expect(sent.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Invalid tool input: $.city is required' });
  });
});

const fixture2 = (...parts: string[]) => ['provider-fixtures', ...parts];

describe.skipIf(!hasRealworld('provider-fixtures', 'anthropic') || !hasRealworld('provider-fixtures', 'azure') || !hasRealworld('provider-fixtures', 'openai-compatible'))(
  'more recorded real streams through the real provider packages',
  () => {
    it('Anthropic: a tool call with no arguments runs with {} and the answer follows', async () => {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const server = await startFixtureServer([
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('anthropic', 'anthropic-tool-no-args.chunks.txt'))) },
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('anthropic', 'anthropic-text.chunks.txt'))) },
      ]);
      close = server.close;
      const received: unknown[] = [];
      const updateIssueList = defineTool({
        name: 'updateIssueList',
        description: 'Refresh the issue list.',
        input: v.strictObject({}),
        execute: (input) => (received.push(input), 'updated'),
      });
      const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
      const run = await defineAgent({ name: 'anthropic', model: anthropic('claude-sonnet-4-5'), tools: [updateIssueList] }).ask('Refresh the issues.');
      expect(run.outcome).toBe('completed');
      expect(received).toEqual([{}]);
      expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'updateIssueList', status: 'success', content: 'updated' });
      expect(run.response.length).toBeGreaterThan(0);
      const sent = server.bodies[1] as { messages: Array<{ role: string; content: Array<{ type: string; content?: unknown }> }> };
      expect(sent.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', content: 'updated' }] });
      expect(run.usage.inputTokens).toBeGreaterThan(0);
    });

    it('Azure (OpenAI Responses): a streamed tool call, its result sent back, then the text', async () => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const server = await startFixtureServer([
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('azure', 'azure-tool-call.1.chunks.txt'))) },
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('azure', 'azure-text.1.chunks.txt'))) },
      ]);
      close = server.close;
      const weather = defineTool({
        name: 'weather',
        description: 'Get the weather for a city.',
        input: v.strictObject({ location: v.string() }),
        execute: ({ location }) => ({ location, temperature: 21 }),
      });
      const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
      const stream = defineAgent({ name: 'azure', model: openai('gpt-4.1-mini'), tools: [weather] }).stream('Weather?');
      const deltas: string[] = [];
      for await (const event of stream) if (event.type === 'tool-call-delta') deltas.push(event.delta);
      const run = await stream.run;
      expect(run.outcome).toBe('completed');
      expect(deltas.join('')).toBe(JSON.stringify(run.steps[0]?.toolCalls[0]?.input));
      expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'weather', status: 'success' });
      const outputs = ((server.bodies[1] as { input: Array<{ type?: string; output?: string }> }).input ?? []).filter((item) => item.type === 'function_call_output');
      expect(outputs).toHaveLength(1);
      expect(run.response.length).toBeGreaterThan(0);
    });

    it('xAI over openai-compatible: a tool call and then text', async () => {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const server = await startFixtureServer([
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('openai-compatible', 'xai-tool-call.chunks.txt'))) },
        { kind: 'sse', events: chunkLines(readRealworld(...fixture2('openai-compatible', 'xai-text.chunks.txt'))) },
      ]);
      close = server.close;
      const calls: unknown[] = [];
      const anyTool = (name: string) => defineTool({ name, description: `The ${name} tool.`, input: { type: 'object' }, execute: (input) => (calls.push([name, input]), 'ok') });
      const names = [...new Set([...readRealworld(...fixture2('openai-compatible', 'xai-tool-call.chunks.txt')).matchAll(/"name":"([A-Za-z0-9_-]+)"/g)].map((match) => match[1]!))];
      const xai = createOpenAICompatible({ name: 'xai', baseURL: server.baseURL, apiKey: 'test-key' });
      const run = await defineAgent({ name: 'xai', model: xai.chatModel('grok-4'), tools: names.map(anyTool) }).ask('Go');
      expect(run.outcome).toBe('completed');
      expect(calls.length).toBeGreaterThan(0);
      expect(run.steps.at(-1)?.toolCalls).toEqual([]);
    });

    it('a failed provider stream ends the run failed with the safe message, nothing of the provider leaking', async () => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const server = await startFixtureServer([{ kind: 'sse', events: chunkLines(readRealworld(...fixture2('openai', 'openai-error.1.chunks.txt'))) }]);
      close = server.close;
      const run = await defineAgent({ name: 'failing', model: createOpenAI({ baseURL: server.baseURL, apiKey: 'k' })('gpt-5'), settings: { maxRetries: 0 } }).ask('Hi');
      expect(run.outcome).toBe('failed');
      expect(run.response).toBe('I hit an error while generating a response. Please retry.');
      expect(run.events.at(-1)).toMatchObject({ type: 'run-error', error: { name: 'ProviderError', message: 'I hit an error while generating a response. Please retry.' } });
    });

    it('an HTTP 429 error body ends the run failed too', async () => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const body = readRealworld(...fixture2('openai', 'openai-error.1.json'));
      const server = await startFixtureServer([{ kind: 'json', body, status: 429 }]);
      close = server.close;
      const run = await defineAgent({ name: 'limited', model: createOpenAI({ baseURL: server.baseURL, apiKey: 'k' })('gpt-5'), settings: { maxRetries: 0 } }).ask('Hi');
      expect(run.outcome).toBe('failed');
      expect((run.error as { statusCode?: number }).statusCode).toBe(429);
      expect(JSON.stringify(run.toJSON())).not.toContain(JSON.parse(body).error?.message ?? '\u0000');
    });
  },
);

describe.skipIf(!hasRealworld('provider-fixtures', 'openai') || !hasRealworld('provider-fixtures', 'azure'))('transient failures over loopback HTTP: model-retry, then the answer', () => {
  it('a real 429 body is retried after 1 s and the recorded answer follows (@ai-sdk/openai, Responses)', async () => {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const body = readRealworld(...fixture2('openai', 'openai-error.1.json'));
    const server = await startFixtureServer([
      { kind: 'json', body, status: 429 },
      { kind: 'sse', events: chunkLines(readRealworld(...fixture2('azure', 'azure-text.1.chunks.txt'))) },
    ]);
    close = server.close;
    const run = await defineAgent({ name: 'limited', model: createOpenAI({ baseURL: server.baseURL, apiKey: 'k' })('gpt-4.1-mini'), settings: { maxRetries: 1 } }).ask('Hi');
    expect(run.outcome).toBe('completed');
    expect(run.response.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
    expect(run.events.filter((event) => event.type === 'model-retry')).toEqual([
      expect.objectContaining({ attempt: 1, delay: 1_000, httpStatus: 429, errorClass: 'AI_APICallError', partialText: '' }),
    ]);
  });

  it('a recorded insufficient_quota inside the stream is not retried: the provider package marks it final', async () => {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const server = await startFixtureServer([{ kind: 'sse', events: chunkLines(readRealworld(...fixture2('openai', 'openai-error.1.chunks.txt'))) }]);
    close = server.close;
    const run = await defineAgent({ name: 'quota', model: createOpenAI({ baseURL: server.baseURL, apiKey: 'k' })('gpt-5') }).ask('Hi');
    expect(run.outcome).toBe('failed');
    expect(server.requests).toHaveLength(1);
    expect(run.events.some((event) => event.type === 'model-retry')).toBe(false);
  });
});

describe('context overflow bodies over loopback HTTP (test/fixtures/provider-errors)', () => {
  const overflowFixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/provider-errors/${name}.json`, import.meta.url), 'utf8')) as { status: number; body: unknown };
  const history = Array.from({ length: 8 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `message-${index}` }));
  const never = { contextWindowTokens: 1_000_000, compressionThreshold: 1, summaryRatio: 0.5, preserveRecentMessages: 2 };

  it.each([
    ['openai-chat-context-length-exceeded', 'openai'],
    ['anthropic-prompt-too-long', 'anthropic'],
    ['vllm-context-length', 'compatible'],
  ] as const)('%s: compaction, then the recorded answer', async (name, provider) => {
    const { manageContext } = await import('ghostlight/context');
    const answer = (text: string) => (provider === 'anthropic' ? anthropicText(text) : chatText(text)) as { events: readonly string[] };
    const error = overflowFixture(name);
    const server = await startFixtureServer([
      { kind: 'json', body: JSON.stringify(error.body), status: error.status },
      { kind: 'sse', events: [...answer('A summary.').events] },
      { kind: 'sse', events: [...answer('Answered.').events] },
    ]);
    close = server.close;
    const model =
      provider === 'anthropic'
        ? (await import('@ai-sdk/anthropic')).createAnthropic({ baseURL: server.baseURL, apiKey: 'k' })('claude-sonnet-4-5')
        : provider === 'openai'
          ? (await import('@ai-sdk/openai')).createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).chat('gpt-4o')
          : (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({ name: 'vllm', baseURL: server.baseURL, apiKey: 'k' }).chatModel('llama');
    const run = await defineAgent({ name: 'overflow', model, capabilities: [manageContext(never)] }).ask('current', { history });
    expect(run.response).toBe('Answered.');
    expect(server.requests).toHaveLength(3);
    expect(run.events.find((event) => event.type === 'context-compaction')).toMatchObject({ reason: 'overflow', outcome: 'compacted' });
    expect(JSON.stringify(server.bodies[2])).not.toContain('message-0');
  });
});
