import { createOpenAI } from '@ai-sdk/openai';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import { failOnAgUiWarnings } from '../support/ag-ui-warnings';
import { calculatorTool as calculator } from '../support/calculator-tool';

// workerd cannot read the disk: vite inlines the recordings at transform time (empty when ../shared is missing).
const recordings = import.meta.glob<string>('../../../shared/realworld/provider-fixtures/openai/*.chunks.txt', { query: '?raw', import: 'default', eager: true });
const recording = (name: string) => Object.entries(recordings).find(([path]) => path.endsWith(`/${name}`))?.[1];
const present = recording('openai-reasoning-encrypted-content.1.chunks.txt') !== undefined;
if (!present) console.warn('[ghostlight tests] SKIPPED: ../shared/realworld/provider-fixtures is missing; the recorded AG-UI test in workerd needs it (REALWORLD.md).');

/** A `fetch` for the provider package that answers request n with recorded stream n, as the real API did. */
function replay(streams: string[][]): typeof fetch {
  let next = 0;
  return async () => {
    const lines = streams[next++];
    if (!lines) return new Response('{"error":{"message":"no more recordings"}}', { status: 500, headers: { 'content-type': 'application/json' } });
    const body = lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n';
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

function split(text: string): string[][] {
  const streams: string[][] = [];
  for (const line of text.split('\n').filter((item) => item.trim() !== '')) {
    if (line.includes('"type":"response.created"') || streams.length === 0) streams.push([]);
    streams.at(-1)!.push(line);
  }
  return streams;
}


describe.skipIf(!present)('@ag-ui/client HttpAgent against createAgentApp in workerd (recorded OpenAI streams)', () => {
  failOnAgUiWarnings();

  async function run(streams: string[][]) {
    const openai = createOpenAI({ baseURL: 'http://provider.test/v1', apiKey: 'test-key', fetch: replay(streams) });
    const agent = defineAgent({ name: 'calc', model: openai('gpt-5-mini'), tools: [calculator], settings: { maxRetries: 0 } });
    const app = createAgentApp({ agents: [agent], auth: () => ({ actorId: 'ada' }), sessions: new MemorySessionStore(), sessionIds: 'client' });
    const client = new HttpAgent({ url: 'http://app.test/agents/calc/ag-ui', threadId: 'thread-0001-of-the-test', fetch: (url, init) => Promise.resolve(app.fetch(new Request(url, init))) });
    client.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'Compute ((12 + 7) * 3) * 10.' });
    const events: Array<{ type: string } & Record<string, unknown>> = [];
    await client.runAgent({}, { onEvent: ({ event }) => void events.push(event as never) }).catch(() => undefined);
    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
    return events;
  }

  it('streams the four-step tool loop', async () => {
    const events = await run(split(recording('openai-reasoning-encrypted-content.1.chunks.txt')!));
    expect(events[0]?.type).toBe('RUN_STARTED');
    expect(events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event) => event.content)).toEqual(['19', '57', '570']);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { response: 'The final result is **570**.' } });
  });

  it('ends the recorded failed stream in RUN_ERROR', async () => {
    const events = await run(split(recording('openai-error.1.chunks.txt')!));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'ProviderError' });
    expect(JSON.stringify(events)).not.toContain('quota');
  });
});
