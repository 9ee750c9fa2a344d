import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { failOnAgUiWarnings } from '../support/ag-ui-warnings';

const worker = exports.default;
const base = 'http://ghostlight.test';
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  worker.fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the demo Worker in workerd (exports.default.fetch)', () => {
  beforeAll(async () => {
    await worker.fetch(`${base}/api`); // the first request loads ai; warm it up (STACK.md G14)
  });

  it('describes itself and answers a run with the offline demo model', async () => {
    const api = (await (await worker.fetch(`${base}/api`)).json()) as { agents: string[]; sessions: string };
    expect(api).toMatchObject({ agents: ['support', 'analyst', 'research', 'survey'], sessions: 'durable-object' });
    const response = await post('/agents/support/runs', { input: 'How long does shipping take?' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'completed', response: expect.stringContaining('three to five business days') });
  });

  it('serves the code-mode analyst: one program fans out over the regional tools inside the Worker', async () => {
    const response = await post('/agents/analyst/runs', { input: 'Which region had the highest revenue in sales over the last 30 days?' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'completed', response: expect.stringMatching(/Called 6 tools in parallel\.[\s\S]*Highest revenue: sales_\w+/) });
  });

  it('serves the research team: two researcher subagents run inside the Worker and persist in Durable Objects', async () => {
    const issued = await post('/agents/research/sessions', {}, { 'x-ghostlight-actor': 'ada' });
    const { sessionId } = (await issued.json()) as { sessionId: string };
    const response = await post('/agents/research/runs', { input: 'Research solar panel prices and wind turbine rivals', sessionId }, { 'x-ghostlight-actor': 'ada' });
    expect(response.status).toBe(200);
    const run = (await response.json()) as { outcome: string; response: string };
    expect(run).toMatchObject({ outcome: 'completed', response: expect.stringContaining('Here is what my 2 subagents found') });
    expect(run.response).toContain('Module prices fell');
    const followUp = (await (await post('/agents/research/runs', { input: 'Follow up on the earlier research', sessionId }, { 'x-ghostlight-actor': 'ada' })).json()) as {
      steps: Array<{ toolCalls: Array<{ toolName: string; content: string }> }>;
    };
    const sent = followUp.steps.flatMap((step) => step.toolCalls).find((call) => call.toolName === 'send_message_to_subagent')!;
    expect(JSON.parse(sent.content)).toMatchObject({ status: 'finished', turn: 2 });
  });

  it('continues a server-issued session stored in a Durable Object and answers another actor as if it did not exist', async () => {
    const created = await post('/agents/support/sessions', {}, { 'x-ghostlight-actor': 'ada' });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    await post('/agents/support/runs', { input: 'How long does shipping take?', sessionId }, { 'x-ghostlight-actor': 'ada' });
    const second = await post('/agents/support/runs', { input: 'And refunds?', sessionId }, { 'x-ghostlight-actor': 'ada' });
    const run = (await second.json()) as { outcome: string; steps: unknown[] };
    expect(run.outcome).toBe('completed');
    const intruder = await post('/agents/support/runs', { input: 'Hi', sessionId }, { 'x-ghostlight-actor': 'eve' });
    expect(intruder.status).toBe(404);
    expect(await intruder.json()).toEqual({ error: { code: 'unknown_session', message: 'No such session' } });
    const stranger = await worker.fetch(`${base}/agents/support/sessions/${sessionId}`, { headers: { 'x-ghostlight-actor': 'eve' } });
    expect(stranger.status).toBe(404);
  });

  it('answers the bad-input corpus with 4xx JSON errors and keeps serving', async () => {
    const cases: Array<[() => Promise<Response>, number, string]> = [
      [() => post('/agents/support/runs', '{"input":'), 400, 'invalid_json'],
      [() => worker.fetch(`${base}/agents/support/runs`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }), 415, 'unsupported_media_type'],
      [() => post('/agents/support/runs', { input: 'x'.repeat(2 * 1024 * 1024) }), 413, 'body_too_large'],
      [() => post('/agents/nobody/runs', { input: 'Hi' }), 404, 'unknown_agent'],
      [() => post('/agents/support/runs', { input: 'Hi' }, { 'x-ghostlight-actor': 'not valid!' }), 401, 'unauthorized'],
      [() => post('/agents/support/runs', { input: 'Hi', history: Array.from({ length: 5_000 }, () => ({ role: 'user', content: 'x' })) }), 413, 'too_many_messages'],
      [() => worker.fetch(`${base}/nowhere`), 404, 'not_found'],
      [() => post('/agents/support/runs', { input: 'Hi', sessionId: 'chat-0123456789abcdef' }), 404, 'unknown_session'],
      [() => post('/agents/support/ag-ui', { threadId: 't', runId: 'r', messages: Array.from({ length: 5_000 }, (_, i) => ({ id: `${i}`, role: 'user', content: 'x' })) }), 413, 'too_many_messages'],
    ];
    for (const [send, status, code] of cases) {
      const response = await send();
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    const after = await post('/agents/support/runs', { input: 'How long does shipping take?' });
    expect(after.status).toBe(200);
  });

  describe('AG-UI', () => {
    failOnAgUiWarnings();

    it('runs @ag-ui/client HttpAgent against the Worker: valid events, accepted ordering, a tool result', async () => {
      const agent = new HttpAgent({ url: `${base}/agents/support/ag-ui`, fetch: (url, init) => worker.fetch(url, init) });
      agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'How long does shipping take?' });
      const events: Array<{ type: string } & Record<string, unknown>> = [];
      await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event as never) });
      for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
      expect(events[0]?.type).toBe('RUN_STARTED');
      expect(events.at(-1)?.type).toBe('RUN_FINISHED');
      expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: expect.stringContaining('business days') });
    });
  });
});
