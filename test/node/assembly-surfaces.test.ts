import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { serve } from '@hono/node-server';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import type { UIMessage } from 'ai';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defineAgent } from 'ghostlight';
import { defineGraph } from 'ghostlight/assemblies';
import { createAgentApp } from 'ghostlight/http';
import { failOnAgUiWarnings } from '../support/ag-ui-warnings';
import { lastUserText, respondingModel } from '../support/scripted-model';

/** triage → (ledger ∥ policy) → writer, every node a scripted agent. */
function investigation() {
  const node = (name: string) => defineAgent({ name, model: respondingModel((call) => ({ text: name === 'writer' ? 'All checked.' : `${name} ok (${lastUserText(call).length})` })) });
  return defineGraph({
    name: 'investigation',
    nodes: { triage: node('triage'), ledger: node('ledger'), policy: node('policy'), writer: node('writer') },
    start: 'triage',
    edges: [{ from: 'triage', to: ['ledger', 'policy'] }, { from: ['ledger', 'policy'], to: 'writer' }],
    finish: 'writer',
  });
}

describe('assembly events on the AG-UI stream (checked with @ag-ui/client)', () => {
  failOnAgUiWarnings();

  it('steps become STEP_STARTED / STEP_FINISHED and routing ghostlight.assembly custom events, accepted without warnings', async () => {
    const app = createAgentApp({ agents: [investigation()], auth: () => ({ actorId: 'ada' }) });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      const client = new HttpAgent({ url: `http://127.0.0.1:${port}/agents/investigation/ag-ui`, threadId: 'thread-graph' });
      client.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'Why is transfer 481 pending?' });
      const events: Array<{ type: string } & Record<string, unknown>> = [];
      await client.runAgent({}, { onEvent: ({ event }) => void events.push(event as never) });
      for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
      const steps = events.filter((event) => event.type === 'STEP_STARTED').map((event) => event.stepName);
      expect(steps[0]).toBe('triage');
      expect([...steps].sort()).toEqual(['ledger', 'policy', 'triage', 'writer']);
      expect(events.filter((event) => event.type === 'STEP_FINISHED')).toHaveLength(4);
      const routing = events.filter((event) => event.type === 'CUSTOM' && event.name === 'ghostlight.assembly').map((event) => (event.value as { event: string }).event);
      expect(routing).toEqual(['fork', 'join']);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { response: 'All checked.' } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('assembly events on the AI SDK UI message stream', () => {
  it('become one data part per step, updated in place, that useChat keeps', async () => {
    const app = createAgentApp({ agents: [investigation()], auth: () => ({ actorId: 'ada' }) });
    const transport = new DefaultChatTransport<UIMessage>({ api: 'http://app.test/agents/investigation/chat', fetch: async (url, init) => app.fetch(new Request(url, init)) });
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Why is transfer 481 pending?' }] };
    const stream = await transport.sendMessages({ chatId: 'chat-graph', messages: [question], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
    let message: UIMessage | undefined;
    for await (const state of readUIMessageStream({ stream, terminateOnError: true })) message = state;
    const parts = message!.parts.filter((part) => part.type === 'data-ghostlight-assembly-step') as Array<{ id: string; data: Record<string, unknown> }>;
    expect(parts.map((part) => [part.data.participant, part.data.status]).sort()).toEqual([
      ['ledger', 'completed'],
      ['policy', 'completed'],
      ['triage', 'completed'],
      ['writer', 'completed'],
    ]);
    const text = message!.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join('');
    expect(text).toBe('All checked.');
  });
});
