import * as v from 'valibot';
import { testRuntime } from '#test-runtime';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_EXPIRED_REASON,
  APPROVAL_SUPERSEDED_REASON,
  ApprovalError,
  ConfigurationError,
  defineAgent,
  defineTool,
  MemorySessionStore,
  ORPHANED_CALL_MESSAGE,
  PARKED_RUN_KEY,
  TOOL_CHANGED_MESSAGE,
} from 'ghostlight';
import type { SessionStore } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';
import type { ScriptedTurn } from '../support/scripted-model';

/** A refund tool that needs approval above 100 and counts its executions. */
function refundTool(options: { always?: boolean; block?: Promise<void> } = {}) {
  const executed: number[] = [];
  const tool = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    input: v.strictObject({ order: v.string(), amount: v.number() }),
    needsApproval: options.always ? true : ({ amount }, binding) => amount > 100 && binding.run.invocation.actorId !== 'admin',
    execute: async ({ amount }, binding) => {
      executed.push(amount);
      if (options.block) await new Promise<void>((_, reject) => binding.signal.addEventListener('abort', () => reject(binding.signal.reason)));
      return `refunded ${amount}`;
    },
  });
  return { tool, executed };
}

const session = (sessions: SessionStore) => ({ sessions, sessionId: 'chat-1', actorId: 'ada' });

/** What the model saw as the results of its calls, in its last call. */
function toolResults(model: ReturnType<typeof scriptedModel>, call = model.calls.length - 1) {
  return model.calls[call]!.prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ id: part.toolCallId, output: part.output }] : [])) : [],
  );
}

const refundTurn = (amount: number, id = 'call-1'): ScriptedTurn => ({ text: 'Refunding.', toolCalls: [{ id, name: 'refund', input: { order: 'A-1', amount } }] });

describe('human approvals', () => {
  it('stops waiting with the pending calls, and an approval runs the call and continues the run', async () => {
    const { tool, executed } = refundTool();
    const sessions = new MemorySessionStore();
    const model = scriptedModel([refundTurn(250), { text: 'Refunded 250.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund order A-1', session(sessions));
    expect(run.outcome).toBe('waiting');
    expect(run.response).toBe('Refunding.');
    expect(run.output).toBeUndefined();
    expect(executed).toEqual([]);
    expect(run.pendingApprovals).toEqual([
      { approvalId: expect.any(String), toolCallId: 'call-1', toolName: 'refund', input: { order: 'A-1', amount: 250 }, requestedAt: expect.any(Number) },
    ]);
    const [pending] = run.pendingApprovals;
    expect(run.events.at(-1)).toMatchObject({ type: 'run-waiting', outcome: 'waiting', approvals: run.pendingApprovals });
    expect(run.events.filter((event) => event.type === 'tool-approval-request')).toMatchObject([{ approvalId: pending!.approvalId, toolCallId: 'call-1' }]);
    expect(run.toJSON()).toMatchObject({ outcome: 'waiting', approvals: run.pendingApprovals });
    // The session keeps the stop.
    expect((await sessions.load('chat-1', { actorId: 'ada' }))?.metadata[PARKED_RUN_KEY]).toMatchObject({ turn: 1, calls: [{ toolCallId: 'call-1' }] });

    const resumed = await agent.resume([{ approvalId: pending!.approvalId, approved: true }], session(sessions));
    expect(resumed.outcome).toBe('completed');
    expect(resumed.response).toBe('Refunded 250.');
    expect(executed).toEqual([250]);
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'text', value: 'refunded 250' } }]);
    expect(resumed.events.filter((event) => event.type === 'tool-approval-response')).toMatchObject([{ approvalId: pending!.approvalId, approved: true }]);
    expect(resumed.steps.map((step) => step.turn)).toEqual([1, 2]);
    expect((await sessions.load('chat-1', { actorId: 'ada' }))?.metadata).not.toHaveProperty(PARKED_RUN_KEY);
    expect((await sessions.load('chat-1', { actorId: 'ada' }))?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('gives a denial to the model as the tool error result with the reason', async () => {
    const { tool, executed } = refundTool({ always: true });
    const sessions = new MemorySessionStore();
    const model = scriptedModel([refundTurn(20), { text: 'Understood, no refund.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund order A-1', session(sessions));
    const resumed = await agent.resume([{ toolCallId: 'call-1', approved: false, reason: 'Over the refund window' }], session(sessions));
    expect(run.outcome).toBe('waiting');
    expect(resumed.response).toBe('Understood, no refund.');
    expect(executed).toEqual([]);
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: 'The user denied the refund call: Over the refund window' } }]);
    expect(resumed.events.filter((event) => event.type === 'tool-approval-response')).toMatchObject([{ approved: false, reason: 'Over the refund window' }]);
  });

  it('asks only for the calls the function selects: the others of the batch run at once', async () => {
    const { tool, executed } = refundTool();
    const sessions = new MemorySessionStore();
    const model = scriptedModel([
      { toolCalls: [{ id: 'small', name: 'refund', input: { order: 'A-1', amount: 20 } }, { id: 'large', name: 'refund', input: { order: 'A-2', amount: 500 } }] },
      { text: 'Both handled.' },
    ]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund both', session(sessions));
    expect(run.pendingApprovals.map((pending) => pending.toolCallId)).toEqual(['large']);
    expect(executed).toEqual([20]);
    const resumed = await agent.resume([{ toolCallId: 'large', approved: true }], session(sessions));
    expect(executed).toEqual([20, 500]);
    expect(resumed.response).toBe('Both handled.');
    expect(toolResults(model)).toEqual([
      { id: 'small', output: { type: 'text', value: 'refunded 20' } },
      { id: 'large', output: { type: 'text', value: 'refunded 500' } },
    ]);
    // The binding decides too: the admin needs no approval.
    const admin = await defineAgent({ name: 'support', model: scriptedModel([refundTurn(900), { text: 'Done.' }]), tools: [tool] }).ask('Refund', {
      sessions,
      sessionId: 'admin-chat',
      actorId: 'admin',
    });
    expect(admin.outcome).toBe('completed');
  });

  it('answers an expired request as a denial with that reason', async () => {
    const { tool, executed } = refundTool({ always: true });
    const sessions = new MemorySessionStore();
    let time = 1_000_000;
    const now = () => time;
    const model = scriptedModel([refundTurn(20), { text: 'The approval expired.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund', { ...session(sessions), approvalTimeout: 60_000, _internal: { now } });
    expect(run.pendingApprovals[0]).toMatchObject({ requestedAt: 1_000_000, expiresAt: 1_060_000 });
    time += 60_000;
    const resumed = await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], { ...session(sessions), _internal: { now } });
    expect(executed).toEqual([]);
    expect(resumed.outcome).toBe('completed');
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: `The user denied the refund call: ${APPROVAL_EXPIRED_REASON}` } }]);
  });

  it('resumes from the session store with an agent defined again (a restart), keeping the limits the run started with', async () => {
    const sessions = new MemorySessionStore();
    const first = refundTool({ always: true });
    const run = await defineAgent({ name: 'support', model: scriptedModel([refundTurn(20)]), tools: [first.tool], limits: { maxTurns: 2 } }).ask('Refund', session(sessions));
    const again = refundTool({ always: true });
    const model = scriptedModel([{ toolCalls: [{ id: 'call-2', name: 'refund', input: { order: 'A-1', amount: 1 } }] }, { text: 'never' }]);
    const restarted = defineAgent({ name: 'support', model, tools: [again.tool] });
    const resumed = await restarted.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(again.executed).toEqual([20]);
    expect(first.executed).toEqual([]);
    // maxTurns 2 came from the stopped run: its turn 2 asks again and waits (turn 3 would be over the limit).
    expect(resumed.outcome).toBe('waiting');
    await expect(restarted.resume([{ toolCallId: 'call-2', approved: true }], session(sessions))).resolves.toMatchObject({
      outcome: 'failed',
      errorInfo: { name: 'ProtocolError', message: 'The agent reached its maximum model turns' },
    });
  });

  it('runs an approved call exactly once when two resumes race', async () => {
    const { tool, executed } = refundTool({ always: true });
    const sessions = new MemorySessionStore();
    const model = scriptedModel([refundTurn(20), { text: 'Refunded.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund', session(sessions));
    const answer = [{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }];
    const results = await Promise.allSettled([agent.resume(answer, session(sessions)), agent.resume(answer, session(sessions))]);
    expect(executed).toEqual([20]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { outcome: 'completed' } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { name: 'ApprovalError', message: 'No approval is pending in session chat-1' } });
  });

  it('runs it once even when the two resumes do not share a lock (two processes over one store)', async () => {
    const { tool, executed } = refundTool({ always: true });
    const shared = new MemorySessionStore();
    // Each "process" has its own view of the store whose lock serialises nothing: only the claim stands between them.
    const processView = (): SessionStore => ({
      version: 'session-store-v1',
      load: (id, access) => shared.load(id, access),
      append: (id, update) => shared.append(id, update),
      replace: (id, snapshot) => shared.replace(id, snapshot),
      lock: async () => () => undefined,
    });
    const model = scriptedModel([refundTurn(20), { text: 'Refunded.' }, { text: 'Refunded.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund', session(processView()));
    const answer = [{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }];
    await Promise.allSettled([agent.resume(answer, session(processView())), agent.resume(answer, session(processView()))]);
    expect(executed).toEqual([20]);
  });

  it('finalises an approved call whose run stopped mid-call as an error result before the next run', async () => {
    const { tool, executed } = refundTool({ always: true, block: Promise.resolve() });
    const sessions = new MemorySessionStore();
    const model = scriptedModel([refundTurn(20), { text: 'The refund was interrupted; shall I retry?' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const run = await agent.ask('Refund', session(sessions));
    // The resume dies while the call runs (as a crashed process or a closed tab would).
    const controller = new AbortController();
    const dying = agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], { ...session(sessions), signal: controller.signal });
    while (executed.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    expect((await dying).outcome).toBe('cancelled');
    const next = await agent.ask('What happened?', session(sessions));
    expect(executed).toEqual([20]);
    expect(next.response).toBe('The refund was interrupted; shall I retry?');
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: ORPHANED_CALL_MESSAGE } }]);
    expect(model.calls[1]!.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('denies what is pending when a new message arrives instead of an answer', async () => {
    const { tool, executed } = refundTool({ always: true });
    const sessions = new MemorySessionStore();
    const model = scriptedModel([refundTurn(20), { text: 'No refund then.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    await agent.ask('Refund', session(sessions));
    const next = await agent.ask('Actually, never mind', session(sessions));
    expect(next.response).toBe('No refund then.');
    expect(executed).toEqual([]);
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: `The user denied the refund call: ${APPROVAL_SUPERSEDED_REASON}` } }]);
    expect(model.calls[1]!.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('does not run a call whose tool changed while it waited', async () => {
    const sessions = new MemorySessionStore();
    const run = await defineAgent({ name: 'support', model: scriptedModel([refundTurn(20)]), tools: [refundTool({ always: true }).tool] }).ask('Refund', session(sessions));
    const changed = defineTool({
      name: 'refund',
      description: 'Refund an order, any amount, no questions.',
      input: v.strictObject({ order: v.string(), amount: v.number() }),
      needsApproval: true,
      execute: () => 'refunded',
    });
    const model = scriptedModel([{ text: 'It did not run.' }]);
    await defineAgent({ name: 'support', model, tools: [changed] }).resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: TOOL_CHANGED_MESSAGE } }]);
  });

  it('refuses answers that would change the call, the limits, or name nothing pending', async () => {
    const { tool } = refundTool({ always: true });
    const sessions = new MemorySessionStore();
    const agent = defineAgent({ name: 'support', model: scriptedModel([refundTurn(20)]), tools: [tool] });
    await expect(agent.resume([{ toolCallId: 'call-1', approved: true }], session(sessions))).rejects.toThrow('No approval is pending in session chat-1');
    const run = await agent.ask('Refund', session(sessions));
    const approvalId = run.pendingApprovals[0]!.approvalId;
    const cases: Array<[unknown, string]> = [
      [[{ approvalId, approved: true, input: { order: 'A-1', amount: 1_000_000 } }], 'An approval answer cannot change the call (input)'],
      [[{ approvalId: 'nope', approved: true }], 'No approval is pending for nope'],
      [[], `Approval ${approvalId} (refund) has no answer`],
      [[{ approvalId, approved: 'yes' }], 'An approval answer needs approved: true or false'],
      [[{ approvalId, approved: true }, { toolCallId: 'call-1', approved: false }], `Approval ${approvalId} was answered twice`],
    ];
    for (const [answers, message] of cases) {
      const refused = agent.resume(answers as never, session(sessions));
      await expect(refused).rejects.toThrow(message);
      await expect(refused).rejects.toSatisfy(ApprovalError.isInstance);
    }
    await expect(agent.resume([{ approvalId, approved: true }], { ...session(sessions), limits: { maxToolCalls: 5 } })).rejects.toThrow(
      'An approval answer cannot change the limits',
    );
    await expect(agent.resume([{ approvalId, approved: true }], {} as never)).rejects.toThrow('agent.resume needs the session store the run waited in (sessions)');
    // Still pending after every refusal.
    expect((await sessions.load('chat-1', { actorId: 'ada' }))?.metadata[PARKED_RUN_KEY]).toBeDefined();
  });

  it('needs a session store for a tool that can need approval', async () => {
    const agent = defineAgent({ name: 'support', model: scriptedModel([{ text: 'hi' }]), tools: [refundTool().tool] });
    const refused = agent.ask('Refund');
    await expect(refused).rejects.toThrow('Tool refund can need approval, and a run waits for approval in its session: pass sessions (a session store) to the run');
    await expect(refused).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it('takes AI SDK tools with needsApproval', async () => {
    const { tool: aiTool, jsonSchema } = await import('ai');
    const executed: unknown[] = [];
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 'wipe', input: { all: true } }] }, { text: 'Wiped.' }]);
    const agent = defineAgent({
      name: 'ops',
      model,
      tools: {
        wipe: aiTool({
          description: 'Wipe the cache.',
          inputSchema: jsonSchema<{ all: boolean }>({ type: 'object', properties: { all: { type: 'boolean' } }, required: ['all'] }),
          needsApproval: async ({ all }) => all,
          execute: async (input) => (executed.push(input), 'wiped'),
        }),
      },
    });
    const run = await agent.ask('Wipe everything', session(sessions));
    expect(run.pendingApprovals).toMatchObject([{ toolCallId: 'c', toolName: 'wipe' }]);
    expect((await agent.resume([{ toolCallId: 'c', approved: true }], session(sessions))).response).toBe('Wiped.');
    expect(executed).toEqual([{ all: true }]);
  });
});

describe('human approvals over HTTP', () => {
  async function appWith(turns: ScriptedTurn[], sessionIds: 'client' | 'server' = 'client') {
    const { createAgentApp } = await import('ghostlight/http');
    const { tool, executed } = refundTool({ always: true });
    const model = scriptedModel(turns);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const app = createAgentApp({
      agents: [agent],
      auth: (request) => ({ actorId: request.headers.get('x-user') ?? 'ada' }),
      sessions: new MemorySessionStore(),
      sessionIds,
    });
    const call = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.fetch(new Request(`http://app${path}`, body === undefined ? { headers } : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
    return { call, executed, model };
  }
  const chatId = 'chat-0123456789abcdef';

  it('lists a session’s pending approvals for its actor only, and answers them', async () => {
    const { call, executed } = await appWith([refundTurn(20), { text: 'Refunded.' }]);
    const started = await (await call('/agents/support/runs', { input: 'Refund A-1', sessionId: chatId })).json();
    expect(started).toMatchObject({ outcome: 'waiting', approvals: [{ toolCallId: 'call-1', toolName: 'refund', input: { order: 'A-1', amount: 20 } }] });
    const listed = await (await call(`/agents/support/sessions/${chatId}/approvals`)).json();
    expect(listed).toEqual({ sessionId: chatId, approvals: started.approvals });
    expect((await call(`/agents/support/sessions/${chatId}/approvals`, undefined, { 'x-user': 'eve' })).status).toBe(404);
    const foreign = await call(`/agents/support/sessions/${chatId}/approvals`, { approvals: [{ approvalId: started.approvals[0].approvalId, approved: true }] }, { 'x-user': 'eve' });
    expect(foreign.status).toBe(404);
    expect(executed).toEqual([]);
    const bad = await call(`/agents/support/sessions/${chatId}/approvals`, { approvals: [{ approvalId: started.approvals[0].approvalId, approved: 'yes' }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'invalid_approvals', message: 'approvals[0].approved must be true or false' } });
    const answered = await call(`/agents/support/sessions/${chatId}/approvals`, { approvals: [{ approvalId: started.approvals[0].approvalId, approved: true }] });
    expect(await answered.json()).toMatchObject({ outcome: 'completed', response: 'Refunded.' });
    expect(executed).toEqual([20]);
    const again = await call(`/agents/support/sessions/${chatId}/approvals`, { approvals: [{ approvalId: started.approvals[0].approvalId, approved: true }] });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: { code: 'approval_refused', message: `No approval is pending in session ${chatId}` } });
    expect(await (await call(`/agents/support/sessions/${chatId}/approvals`)).json()).toEqual({ sessionId: chatId, approvals: [] });
  });

  it('speaks AI SDK’s approval convention on the chat route (tool-approval-request, then approval-responded parts)', async () => {
    const { parseSse } = await import('../support/sse');
    const { call, executed } = await appWith([refundTurn(20), { text: 'Refunded.' }]);
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund A-1' }] };
    const first = parseSse(await (await call('/agents/support/chat', { id: chatId, messages: [user], trigger: 'submit-message' })).text()).map((frame) => frame.data as Record<string, unknown>);
    const request = first.find((chunk) => chunk.type === 'tool-approval-request')!;
    expect(request).toEqual({ type: 'tool-approval-request', approvalId: expect.any(String), toolCallId: 'call-1' });
    expect(first.some((chunk) => chunk.type === 'tool-output-error')).toBe(false);
    expect(first.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { outcome: 'waiting' } });
    const assistant = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Refunding.' },
        // The client may send anything else in the part: only approval.{id, approved, reason} is read.
        { type: 'tool-refund', toolCallId: 'call-1', state: 'approval-responded', input: { order: 'A-1', amount: 999_999 }, approval: { id: request.approvalId, approved: true } },
      ],
    };
    const second = parseSse(await (await call('/agents/support/chat', { id: chatId, messages: [user, assistant], trigger: 'submit-message' })).text()).map((frame) => frame.data as Record<string, unknown>);
    expect(second).toContainEqual({ type: 'tool-output-available', toolCallId: 'call-1', output: 'refunded 20' });
    expect(second.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { outcome: 'completed' } });
    expect(executed).toEqual([20]);
  });

  it('answers 4xx, not 500, when the request names no session of this actor (server-issued ids) and the run would wait in one', async () => {
    const { call, executed, model } = await appWith([refundTurn(20)], 'server');
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund A-1' }] };
    const how = 'name a session of yours (POST /agents/support/sessions issues one)';
    const unissued = await call('/agents/support/chat', { id: chatId, messages: [user], trigger: 'submit-message' });
    expect(unissued.status).toBe(404);
    expect(await unissued.json()).toEqual({ error: { code: 'unknown_session', message: `No such session: agent support waits for approvals in a session, so ${how}` } });
    // Another actor's session gets the same answer as one never issued.
    const { sessionId } = await (await call('/agents/support/sessions', {}, { 'x-user': 'eve' })).json();
    const foreign = await call('/agents/support/chat', { id: sessionId, messages: [user], trigger: 'submit-message' });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: { code: 'unknown_session', message: `No such session: agent support waits for approvals in a session, so ${how}` } });
    const unnamed = await call('/agents/support/chat', { messages: [user], trigger: 'submit-message' });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toEqual({ error: { code: 'session_required', message: `Agent support waits for approvals in a session: ${how}` } });
    const runs = await call('/agents/support/runs', { input: 'Refund A-1' });
    expect(runs.status).toBe(400);
    expect(await runs.json()).toEqual({ error: { code: 'session_required', message: `Agent support waits for approvals in a session: ${how}` } });
    expect(model.calls).toEqual([]);
    expect(executed).toEqual([]);
    // A session issued to this actor works as before.
    const { parseSse } = await import('../support/sse');
    const own = (await (await call('/agents/support/sessions', {})).json()).sessionId as string;
    const chunks = parseSse(await (await call('/agents/support/chat', { id: own, messages: [user], trigger: 'submit-message' })).text()).map((frame) => frame.data as Record<string, unknown>);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { outcome: 'waiting' } });
  });

  it('ends an AG-UI run with the interrupt outcome and continues it from RunAgentInput.resume', async () => {
    const { parseSse } = await import('../support/sse');
    const { call, executed, model } = await appWith([refundTurn(20), { text: 'Not refunded.' }]);
    const input = { threadId: chatId, runId: 'r1', messages: [{ id: 'm1', role: 'user', content: 'Refund A-1' }], tools: [], context: [], state: {}, forwardedProps: {} };
    const first = parseSse(await (await call('/agents/support/ag-ui', input)).text()).map((frame) => frame.data as Record<string, any>);
    const finished = first.at(-1)!;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [{ reason: 'tool_approval', toolCallId: 'call-1' }] } });
    const interruptId = finished.outcome.interrupts[0].id;
    const resumed = parseSse(
      await (await call('/agents/support/ag-ui', { ...input, runId: 'r2', resume: [{ interruptId, status: 'cancelled', payload: { reason: 'Not today' } }] })).text(),
    ).map((frame) => frame.data as Record<string, any>);
    expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { response: 'Not refunded.' } });
    expect(executed).toEqual([]);
    expect(toolResults(model)).toEqual([{ id: 'call-1', output: { type: 'error-text', value: 'The user denied the refund call: Not today' } }]);
  });
});

/** The durable stores this runtime has (Durable Objects in workerd, IndexedDB in Chromium; two IndexedDB clients: test/browser/indexed-db-approvals.test.ts). */
const durableStores = (testRuntime as { sessionStores?: Record<string, () => SessionStore | Promise<SessionStore>> }).sessionStores ?? {};

for (const [storeName, openStore] of Object.entries(durableStores)) {
  describe(`human approvals in a ${storeName} session store`, () => {
    it('waits in the store, and two racing resumes run the call once', async () => {
      const sessionId = `approvals-${crypto.randomUUID()}`;
      const sessions = await openStore();
      const where = async () => ({ sessions, sessionId, actorId: 'ada' });
      const { tool, executed } = refundTool({ always: true });
      const model = scriptedModel([refundTurn(20), { text: 'Refunded.' }, { text: 'Refunded.' }]);
      const agent = defineAgent({ name: 'support', model, tools: [tool] });
      const run = await agent.ask('Refund', await where());
      expect(run.outcome).toBe('waiting');
      const answer = [{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }];
      const results = await Promise.allSettled([agent.resume(answer, await where()), agent.resume(answer, await where())]);
      expect(executed).toEqual([20]);
      expect(results.filter((result) => result.status === 'fulfilled' && result.value.outcome === 'completed').length).toBeGreaterThanOrEqual(1);
      const stored = await sessions.load(sessionId, { actorId: 'ada' });
      expect(stored?.metadata).not.toHaveProperty(PARKED_RUN_KEY);
    });
  });
}
