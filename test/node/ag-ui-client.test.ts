import { createOpenAI } from '@ai-sdk/openai';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import { startFixtureServer } from '../support/fixture-server';
import type { FixtureResponse } from '../support/fixture-server';
import { failOnAgUiWarnings } from '../support/ag-ui-warnings';
import { calculatorTool as calculator } from '../support/calculator-tool';
import { hasRealworld, readRealworld, recordedStreams } from '../support/realworld';

/** Serves the real app on 127.0.0.1 with an OpenAI model pointed at a replay of `recordings`. */
async function startApp(recordings: FixtureResponse[], api: 'responses' | 'chat' = 'responses') {
  const provider = await startFixtureServer(recordings);
  const openai = createOpenAI({ baseURL: provider.baseURL, apiKey: 'test-key' });
  const model = api === 'chat' ? openai.chat('gpt-4.1-nano') : openai('gpt-5-mini');
  const agent = defineAgent({ name: 'calc', model, tools: [calculator], settings: { maxRetries: 0 } });
  const app = createAgentApp({ agents: [agent], auth: (request) => ({ actorId: request.headers.get('x-actor') ?? 'ada' }), sessions: new MemorySessionStore(), sessionIds: 'client' });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agents/calc/ag-ui`,
    provider,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await provider.close();
    },
  };
}

/** Runs an HttpAgent and collects every event it accepted, validating each against @ag-ui/core. */
async function runClient(url: string, message: string, agent = new HttpAgent({ url, threadId: 'thread-0001-of-the-test' })) {
  agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: message });
  const events: Array<{ type: string } & Record<string, unknown>> = [];
  let failure: unknown;
  try {
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event as never) });
  } catch (error) {
    failure = error;
  }
  for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return { agent, events, failure };
}

describe.skipIf(!hasRealworld('provider-fixtures'))('@ag-ui/client HttpAgent against the real app (recorded OpenAI responses)', () => {
  failOnAgUiWarnings();

  it('runs a four-step tool loop: every event valid, ordering accepted, messages rebuilt', async () => {
    const served = await startApp(recordedStreams('openai/openai-reasoning-encrypted-content.1.chunks.txt', '"type":"response.created"'));
    try {
      const { agent, events, failure } = await runClient(served.url, 'Compute ((12 + 7) * 3) * 10 with the calculator.');
      expect(failure).toBeUndefined();
      const types = events.map((event) => event.type);
      expect(types[0]).toBe('RUN_STARTED');
      expect(types.at(-1)).toBe('RUN_FINISHED');
      expect(types.filter((type) => type === 'TOOL_CALL_START')).toHaveLength(3);
      expect(types.filter((type) => type === 'TOOL_CALL_RESULT')).toHaveLength(3);
      expect(types).toContain('REASONING_MESSAGE_CONTENT');
      const results = events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event) => event.content);
      expect(results).toEqual(['19', '57', '570']);
      expect(events.at(-1)).toMatchObject({ threadId: 'thread-0001-of-the-test', result: { response: 'The final result is **570**.' } });
      expect(events.find((event) => event.type === 'CUSTOM')).toMatchObject({ name: 'ghostlight.usage' });
      const assistantText = agent.messages.filter((message) => message.role === 'assistant').map((message) => message.content).join('');
      expect(assistantText).toContain('570');
      expect(JSON.stringify(events)).not.toContain('encrypted_content');
      expect(served.provider.requests).toHaveLength(4);
    } finally {
      await served.close();
    }
  });

  it('ends the failed stream (openai-error.1) in RUN_ERROR without the provider message', async () => {
    const served = await startApp(recordedStreams('openai/openai-error.1.chunks.txt'));
    try {
      const { events } = await runClient(served.url, 'Hello');
      expect(events[0]?.type).toBe('RUN_STARTED');
      expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'ProviderError', metadata: { cleanupFailed: false } });
      expect(JSON.stringify(events)).not.toContain('quota');
    } finally {
      await served.close();
    }
  });

  it('ends an HTTP 429 error body (openai-error.1.json) in RUN_ERROR', async () => {
    const served = await startApp([{ kind: 'json', body: readRealworld('provider-fixtures', 'openai/openai-error.1.json'), status: 429 }]);
    try {
      const { events } = await runClient(served.url, 'Hello');
      expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR' });
      expect(JSON.stringify(events)).not.toContain('quota');
    } finally {
      await served.close();
    }
  });

  it('continues the thread across two runs from the same client', async () => {
    const recordings = [...recordedStreams('openai/openai-text.chunks.txt'), ...recordedStreams('openai/openai-text.chunks.txt')];
    const served = await startApp(recordings, 'chat');
    try {
      const first = await runClient(served.url, 'Say hello');
      expect(first.failure).toBeUndefined();
      const second = await runClient(served.url, 'Again', first.agent);
      expect(second.failure).toBeUndefined();
      const secondRequest = served.provider.requests[1]!.body as { messages: Array<{ role?: string }> };
      expect(secondRequest.messages.map((item) => item.role)).toEqual(['user', 'assistant', 'user']);
    } finally {
      await served.close();
    }
  });
});
