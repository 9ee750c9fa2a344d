import { createOpenAI } from '@ai-sdk/openai';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent, defineTool } from '../../src/index';
import { chunkLines, splitStreams, startFixtureServer } from '../support/fixture-server';
import { hasRealworld, readRealworld } from '../support/realworld';

const calculator = defineTool({
  name: 'calculator',
  description: 'Apply an arithmetic operation to two numbers.',
  input: v.strictObject({ a: v.number(), b: v.number(), op: v.picklist(['add', 'subtract', 'multiply', 'divide']) }),
  execute: ({ a, b, op }) => ({ add: a + b, subtract: a - b, multiply: a * b, divide: a / b })[op],
});

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
