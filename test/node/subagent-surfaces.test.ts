import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { serve } from '@hono/node-server';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import type { UIMessage } from 'ai';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AgUiEncoder } from 'ghostlight/ag-ui';
import { createAgentApp } from 'ghostlight/http';
import { subagents } from 'ghostlight/subagents';
import { UiMessageEncoder } from 'ghostlight/ui-stream';
import { failOnAgUiWarnings } from '../support/ag-ui-warnings';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

/** A lead that fans out to two researchers asynchronously and waits for them. */
function leadAgent() {
  const researcher = defineAgent({ name: 'researcher', model: respondingModel((call) => ({ text: `Findings on ${lastUserText(call)}`, delayMs: 5 })) });
  const spawn = (task_name: string, task: string) => ({ name: 'spawn_subagent', input: { kind: 'researcher', task_name, task, mode: 'async' } });
  return defineAgent({
    name: 'lead',
    model: scriptedModel([
      { toolCalls: [spawn('prices', 'prices'), spawn('rivals', 'rivals')] },
      { toolCalls: [{ name: 'wait_for_subagents', input: {} }] },
      { text: 'Both researchers reported.' },
    ]),
    capabilities: [subagents([{ agent: researcher, description: 'Researches one question' }])],
  });
}

describe('subagent events on the AG-UI stream (checked with @ag-ui/client)', () => {
  failOnAgUiWarnings();

  it('arrive as ghostlight.subagent custom events that the client accepts without warnings', async () => {
    const app = createAgentApp({ agents: [leadAgent()], auth: () => ({ actorId: 'ada' }), sessions: new MemorySessionStore() });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      const client = new HttpAgent({ url: `http://127.0.0.1:${port}/agents/lead/ag-ui`, threadId: 'thread-sub' });
      client.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'Research prices and rivals' });
      const events: Array<{ type: string } & Record<string, unknown>> = [];
      await client.runAgent({}, { onEvent: ({ event }) => void events.push(event as never) });
      for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
      const lifecycle = events.filter((event) => event.type === 'CUSTOM' && event.name === 'ghostlight.subagent').map((event) => event.value as Record<string, unknown>);
      expect(lifecycle.filter((value) => value.event === 'spawned').map((value) => value.subagentId)).toEqual(['/root/prices', '/root/rivals']);
      expect(lifecycle.filter((value) => value.event === 'turn_finished')).toHaveLength(2);
      expect(lifecycle[0]).toMatchObject({ kind: 'researcher', status: 'queued', turn: 1, parentToolCallId: expect.any(String) });
      expect(lifecycle[0]).not.toHaveProperty('runId');
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { response: 'Both researchers reported.' } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('encodes a delivered interjection as a valid custom event', () => {
    const encoder = new AgUiEncoder({ threadId: 't', runId: 'r' });
    const base = { runId: 'run', sequence: 0, time: 1 };
    const out = [
      ...encoder.encode({ ...base, type: 'run-start', sessionId: 's', agent: 'a' }),
      ...encoder.encode({ ...base, type: 'agent-interjection-delivered', turn: 2, interjectionIds: ['i1', 'i2'], batchKey: 'notes' }),
    ];
    for (const event of out) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(out[1]).toEqual({ type: 'CUSTOM', name: 'ghostlight.agent_interjection_delivered', value: { interjectionIds: ['i1', 'i2'], batchKey: 'notes' }, timestamp: 1 });
  });
});

describe('subagent events on the AI SDK UI message stream', () => {
  it('become one data part per subagent, updated in place, that useChat keeps', async () => {
    const app = createAgentApp({ agents: [leadAgent()], auth: () => ({ actorId: 'ada' }), sessions: new MemorySessionStore() });
    const transport = new DefaultChatTransport<UIMessage>({ api: 'http://app.test/agents/lead/chat', fetch: async (url, init) => app.fetch(new Request(url, init)) });
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Research prices and rivals' }] };
    const stream = await transport.sendMessages({ chatId: 'chat-sub', messages: [question], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
    let message: UIMessage | undefined;
    for await (const state of readUIMessageStream({ stream, terminateOnError: true })) message = state;
    const parts = message!.parts.filter((part) => part.type === 'data-ghostlight-subagent') as Array<{ id: string; data: Record<string, unknown> }>;
    expect(parts.map((part) => part.id)).toEqual(['/root/prices', '/root/rivals']);
    expect(parts.map((part) => [part.data.event, part.data.status])).toEqual([
      ['turn_finished', 'idle'],
      ['turn_finished', 'idle'],
    ]);
    const interjection = new UiMessageEncoder().encode({ runId: 'r', sequence: 3, time: 1, type: 'agent-interjection-delivered', turn: 2, interjectionIds: ['i1'] } as GhostlightEvent);
    expect(interjection).toEqual([{ type: 'data-ghostlight-interjection', transient: true, data: { interjectionIds: ['i1'] } }]);
  });
});
