import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, MemorySessionStore, PARKED_RUN_KEY } from 'ghostlight';
import { codeMode, defaultCodeEngine } from 'ghostlight/code-mode';
import { scriptedModel } from '../support/scripted-model';

const engine = defaultCodeEngine();

/** A lookup (no approval) and a refund (approval) that count their executions. */
function tools() {
  const executed: string[] = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up an order.',
    input: v.strictObject({ order: v.string() }),
    execute: ({ order }) => (executed.push(`lookup ${order}`), { order, total: 40 }),
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    input: v.strictObject({ order: v.string(), amount: v.number() }),
    needsApproval: true,
    execute: ({ order, amount }) => (executed.push(`refund ${order} ${amount}`), `refunded ${amount}`),
  });
  return { executed, list: [lookup, refund] };
}

const session = (sessions: MemorySessionStore) => ({ sessions, sessionId: 'code-chat', actorId: 'ada' });

/** The observation the model got for its exec call, in its last call. */
function observation(model: ReturnType<typeof scriptedModel>) {
  const prompt = model.calls.at(-1)!.prompt;
  const tool = prompt.findLast((message) => message.role === 'tool')!;
  const part = (tool.content as Array<{ type: string; output: { value: string } }>).find((item) => item.type === 'tool-result')!;
  try {
    return JSON.parse(part.output.value) as Record<string, unknown>;
  } catch {
    return { text: part.output.value };
  }
}

const PROGRAM = `
const before = { now: Date.now(), random: Math.random(), date: new Date().getTime() };
const order = await tools.lookup({ order: 'A-1' });
text('looked up ' + order.order);
const refunded = await tools.refund({ order: order.order, amount: order.total });
const after = { now: Date.now(), random: Math.random() };
return { before, refunded, after };
`;

describe('approvals inside code mode (deterministic replay)', () => {
  it('suspends a program at a call that needs approval and, once approved, replays it to that call and continues', async () => {
    const { executed, list } = tools();
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source: PROGRAM } }] }, { text: 'Refunded.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    const run = await agent.ask('Refund A-1', session(sessions));
    expect(run.outcome).toBe('waiting');
    expect(run.pendingApprovals).toEqual([
      { approvalId: expect.any(String), toolCallId: 'x1', toolName: 'refund', input: { order: 'A-1', amount: 40 }, parentToolName: 'exec', requestedAt: expect.any(Number) },
    ]);
    expect(executed).toEqual(['lookup A-1']);
    const parked = (await sessions.load('code-chat', { actorId: 'ada' }))!.metadata[PARKED_RUN_KEY] as { calls: Array<{ approval: { suspended: { state: { journal: { clock: number } } } } }> };
    const clock = parked.calls[0]!.approval.suspended.state.journal.clock;

    // A restart: a new agent (and engine context) continues from the session.
    const again = tools();
    const restarted = defineAgent({ name: 'coder', model, tools: again.list, capabilities: [codeMode({ engine })] });
    const resumed = await restarted.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(resumed.outcome).toBe('completed');
    expect(resumed.response).toBe('Refunded.');
    // The lookup was answered from the journal; the refund ran once, for real.
    expect(again.executed).toEqual(['refund A-1 40']);
    expect(executed).toEqual(['lookup A-1']);
    const seen = observation(model);
    expect(seen).toMatchObject({ status: 'completed', output: 'looked up A-1', value: { refunded: 'refunded 40' } });
    const value = seen.value as { before: { now: number; random: number; date: number }; after: { now: number; random: number } };
    // Date.now() and Math.random() before the suspended call saw the values the first run saw, on a reproducible clock.
    expect(value.before.now).toBe(clock);
    expect(value.before.date).toBe(clock + 1);
    expect(value.after.now).toBe(clock + 2);
    expect(value.before.random).toBeGreaterThanOrEqual(0);
    expect(value.before.random).toBeLessThan(1);
    expect(value.after.random).not.toBe(value.before.random);
  });

  it('replays the same values: the first run and the replay agree on what the program read before the call', async () => {
    const { list } = tools();
    const sessions = new MemorySessionStore();
    const source = `const seen = [Date.now(), Math.random(), Math.random()]; text(JSON.stringify(seen)); await tools.refund({ order: 'B', amount: 1 }); return seen;`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'ok' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    const run = await agent.ask('go', session(sessions));
    const firstOutput = run.events.find((event) => event.type === 'program-observe');
    expect(firstOutput).toMatchObject({ status: 'still_working' });
    await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    const seen = observation(model);
    // The replay wrote the same text again (same clock and random values) and returned them.
    expect(JSON.parse(seen.output as string)).toEqual(seen.value);
    const parkedRun = run.events.find((event) => event.type === 'tool-approval-request');
    expect(parkedRun).toMatchObject({ toolName: 'refund', parentToolName: 'exec' });
  });

  it('carries the suspended program through the UI message stream: approval request, then the program’s output', async () => {
    const { UiMessageEncoder } = await import('ghostlight/ui-stream');
    const { list } = tools();
    const sessions = new MemorySessionStore();
    const source = `return await tools.refund({ order: 'U', amount: 3 });`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'ok' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    const encode = (events: readonly import('ghostlight').GhostlightEvent[]) => {
      const encoder = new UiMessageEncoder();
      return events.flatMap((event) => encoder.encode(event));
    };
    const run = await agent.ask('go', session(sessions));
    const first = encode(run.events);
    expect(first).toContainEqual({ type: 'tool-approval-request', approvalId: run.pendingApprovals[0]!.approvalId, toolCallId: 'x1' });
    expect(first.filter((chunk) => chunk.type === 'tool-output-error')).toEqual([]);
    const resumed = await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: false }], session(sessions));
    const second = encode(resumed.events);
    expect(second.filter((chunk) => chunk.type === 'tool-output-denied')).toEqual([]);
    // The program did not catch the denial: its observation (an error) is the exec call's output.
    const output = second.find((chunk) => chunk.type === 'tool-output-error' && chunk.toolCallId === 'x1') as { errorText: string } | undefined;
    expect(output?.errorText).toContain('The user denied the refund call');
  });

  it('abandons a suspended program when a new message arrives instead of an answer', async () => {
    const { executed, list } = tools();
    const sessions = new MemorySessionStore();
    const source = `await tools.refund({ order: 'N', amount: 1 }); return await tools.refund({ order: 'N', amount: 2 });`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Something else then.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    await agent.ask('go', session(sessions));
    const next = await agent.ask('Never mind, something else', session(sessions));
    expect(next.outcome).toBe('completed');
    expect(executed).toEqual([]);
    expect(observation(model)).toEqual({ text: 'The user denied the refund call: A new message arrived before the approval was answered' });
    expect(model.calls[1]!.prompt.at(-1)).toMatchObject({ role: 'user' });
  });

  it('gives a denial to the program as the call’s error, which it can handle', async () => {
    const { executed, list } = tools();
    const sessions = new MemorySessionStore();
    const source = `try { await tools.refund({ order: 'C', amount: 5 }); return 'refunded'; } catch (error) { return 'refused: ' + error.message; }`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Denied.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    const run = await agent.ask('go', session(sessions));
    await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: false, reason: 'Too late' }], session(sessions));
    expect(executed).toEqual([]);
    expect(observation(model)).toMatchObject({ status: 'completed', value: 'refused: The user denied the refund call: Too late' });
  });

  it('suspends again at a second call that needs approval, and finishes after both', async () => {
    const { executed, list } = tools();
    const sessions = new MemorySessionStore();
    const source = `const a = await tools.refund({ order: 'D', amount: 1 }); const b = await tools.refund({ order: 'E', amount: 2 }); return [a, b];`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Both.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: list, capabilities: [codeMode({ engine })] });
    const first = await agent.ask('go', session(sessions));
    const second = await agent.resume([{ approvalId: first.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(second.outcome).toBe('waiting');
    expect(second.pendingApprovals).toMatchObject([{ toolName: 'refund', input: { order: 'E', amount: 2 } }]);
    const third = await agent.resume([{ approvalId: second.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(third.response).toBe('Both.');
    expect(executed).toEqual(['refund D 1', 'refund E 2']);
    expect(observation(model)).toMatchObject({ status: 'completed', value: ['refunded 1', 'refunded 2'] });
  });

  it('fails the replay with CodeReplayError when the program does not repeat its calls (it depends on something outside the journal)', async () => {
    const { executed, list } = tools();
    const sessions = new MemorySessionStore();
    // `input`-free, but reads a tool whose answer changes between runs through the session store's clock… here: a global counter.
    let calls = 0;
    const flaky = defineTool({ name: 'flaky', description: 'Changes every run.', input: v.strictObject({}), execute: () => ++calls });
    const source = `const n = await tools.flaky({}); await tools.refund({ order: 'F', amount: 1 }); return n;`;
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Could not continue.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: [...list, flaky], capabilities: [codeMode({ engine })] });
    const run = await agent.ask('go', session(sessions));
    // A program edited between runs stands for a program whose calls differ on replay.
    const parked = (await sessions.load('code-chat', { actorId: 'ada' }))!;
    const record = structuredClone(parked.metadata[PARKED_RUN_KEY]) as { calls: Array<{ approval: { suspended: { state: { journal: { calls: Array<{ args: string }> } } } } }> };
    record.calls[0]!.approval.suspended.state.journal.calls[0]!.args = '{"other":true}';
    await sessions.replace('code-chat', { actorId: 'ada', messages: parked.messages, state: parked.state, metadata: { ...parked.metadata, [PARKED_RUN_KEY]: record as never } });
    const resumed = await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(resumed.outcome).toBe('completed');
    expect(executed).toEqual([]);
    expect(observation(model)).toEqual({ text: 'The program could not be replayed after the approval: its call 1 was flaky({"other":true}) and is now flaky({})' });
  });

  it('suspends a program observed by wait (exec returned still_working) and replays it under that wait call', async () => {
    const { executed, list } = tools();
    // The lookup finishes only once the model has seen exec's still_working and asks to wait.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = defineTool({
      name: 'slow_lookup',
      description: 'Look up slowly.',
      input: v.strictObject({}),
      execute: async () => (await gate, executed.push('slow'), 7),
    });
    const sessions = new MemorySessionStore();
    const source = `const n = await tools.slow_lookup({}); return await tools.refund({ order: 'W', amount: n });`;
    const model = scriptedModel([
      { toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] },
      { toolCalls: [{ id: 'w1', name: 'wait', input: {} }], onCall: () => open() },
      { text: 'Refunded after the wait.' },
    ]);
    const agent = defineAgent({ name: 'coder', model, tools: [...list, slow], capabilities: [codeMode({ engine, limits: { observeMs: 300 } })] });
    const run = await agent.ask('go', session(sessions));
    expect(run.outcome).toBe('waiting');
    expect(run.pendingApprovals).toMatchObject([{ toolCallId: 'w1', toolName: 'refund', input: { order: 'W', amount: 7 }, parentToolName: 'wait' }]);
    const resumed = await agent.resume([{ approvalId: run.pendingApprovals[0]!.approvalId, approved: true }], session(sessions));
    expect(resumed.response).toBe('Refunded after the wait.');
    expect(executed).toEqual(['slow', 'refund W 7']);
    expect(observation(model)).toMatchObject({ status: 'completed', value: 'refunded 7' });
  });

  it('refuses a program’s call that needs approval in runCode, where nothing can suspend it', async () => {
    const { runCode } = await import('ghostlight/code-mode');
    const { list, executed } = tools();
    const result = await runCode(`try { await tools.refund({ order: 'G', amount: 1 }); } catch (error) { return error.message; }`, { tools: list, engine });
    expect(executed).toEqual([]);
    expect(result.value).toBe("Tool refund needs a person's approval, which a program cannot ask for here; call it directly instead");
  });
});
