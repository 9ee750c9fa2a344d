import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AgentInterjectionError,
  CANCELLED_MESSAGE,
  CancelledError,
  cancelledMessage,
  DeadlineExceededError,
  defineAgent,
  defineTool,
  INTERJECTION_PREFIX,
  MemorySessionStore,
  WAIT_DEADLINE_MESSAGE,
} from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { gatedTool } from '../support/gated-tool';
import { scriptedModel } from '../support/scripted-model';

/** The last event of a finished run's log. */
async function lastEvent(events: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent | undefined> {
  let last: GhostlightEvent | undefined;
  for await (const event of events) last = event;
  return last;
}

const slowTurn = { toolCalls: [{ name: 'slow_work', input: {} }] };

describe('executions (SPEC A18)', () => {
  it('goes pending → running → finished, with its events and its run', async () => {
    const gate = gatedTool();
    const agent = defineAgent({ name: 'worker', model: scriptedModel([slowTurn, { text: 'Finished.' }]), tools: [gate.tool] });
    const execution = agent.start('Work');
    expect(execution.state).toBe('pending');
    await gate.running;
    expect(execution.state).toBe('running');
    gate.open();
    const run = await execution.wait();
    expect(execution.state).toBe('finished');
    expect(run.response).toBe('Finished.');
    expect(run.runId).toBe(execution.runId);
    const types: string[] = [];
    for await (const event of execution) types.push(event.type);
    expect(types.at(0)).toBe('run-start');
    expect(types.at(-1)).toBe('run-stop');
  });

  it('stops waiting at the wait deadline with DeadlineExceededError and the run goes on', async () => {
    const gate = gatedTool();
    const agent = defineAgent({ name: 'worker', model: scriptedModel([slowTurn, { text: 'Finished.' }]), tools: [gate.tool] });
    const execution = agent.start('Work');
    await gate.running;
    const waited = execution.wait({ deadline: Date.now() + 5 });
    await expect(waited).rejects.toThrow(WAIT_DEADLINE_MESSAGE);
    await expect(waited).rejects.toSatisfy(DeadlineExceededError.isInstance);
    expect(execution.state).toBe('running');
    gate.open();
    expect((await execution.wait({ deadline: new Date(Date.now() + 30_000) })).outcome).toBe('completed');
  });

  it('cancels with a reason, and close is cancel + wait, idempotent', async () => {
    const gate = gatedTool();
    const agent = defineAgent({ name: 'worker', model: scriptedModel([slowTurn]), tools: [gate.tool] });
    const execution = agent.start('Work');
    await gate.running;
    execution.cancel('The user pressed stop');
    const run = await execution.wait();
    expect(run.outcome).toBe('cancelled');
    expect(run.response).toBe('');
    expect(CancelledError.isInstance(run.error)).toBe(true);
    const message = 'The run was cancelled: The user pressed stop';
    expect(run.errorInfo).toEqual({ name: 'CancelledError', message });
    expect((run.error as Error).message).toBe(message);
    expect(await lastEvent(execution.events())).toMatchObject({ type: 'run-cancel', outcome: 'cancelled', response: '', error: { name: 'CancelledError', message } });
    expect(await execution.close()).toBe(run);
    expect(await execution.close()).toBe(run);
  });

  it('says "The run was cancelled" without a reason, and keeps the prefix before any given reason', async () => {
    expect([cancelledMessage(), cancelledMessage(''), cancelledMessage('The client went away')]).toEqual([
      CANCELLED_MESSAGE,
      'The run was cancelled',
      'The run was cancelled: The client went away',
    ]);
    const gate = gatedTool();
    const agent = defineAgent({ name: 'worker', model: scriptedModel([slowTurn]), tools: [gate.tool] });
    const execution = agent.start('Work');
    await gate.running;
    execution.cancel();
    execution.cancel('Too late: the first cancel wins');
    const run = await execution.wait();
    expect(run.errorInfo).toEqual({ name: 'CancelledError', message: 'The run was cancelled' });
    expect(await lastEvent(execution.events())).toMatchObject({ type: 'run-cancel', error: { message: 'The run was cancelled' } });
  });

  it('closes a finished execution without changing its outcome, and closes on asyncDispose', async () => {
    const agent = defineAgent({ name: 'worker', model: scriptedModel([{ text: 'Hi.' }]) });
    const done = agent.start('Hello');
    await done.wait();
    expect((await done.close()).outcome).toBe('completed');

    const gate = gatedTool();
    const slow = defineAgent({ name: 'worker', model: scriptedModel([slowTurn]), tools: [gate.tool] }).start('Work');
    await gate.running;
    await slow[Symbol.asyncDispose]();
    expect(slow.state).toBe('finished');
    expect((await slow.run).outcome).toBe('cancelled');
  });

  it('cancels when the caller signal aborts, as ask does', async () => {
    const gate = gatedTool();
    const controller = new AbortController();
    const execution = defineAgent({ name: 'worker', model: scriptedModel([slowTurn]), tools: [gate.tool] }).start('Work', { signal: controller.signal });
    await gate.running;
    controller.abort();
    expect((await execution.wait()).outcome).toBe('cancelled');
  });

  it('interjects through the execution and through the agent, which must have exactly one running run', async () => {
    const gate = gatedTool();
    const model = scriptedModel([slowTurn, { text: 'Noted: EU only.', toolCalls: [{ name: 'slow_work', input: {} }] }, { text: 'EU policy summary.' }]);
    const agent = defineAgent({ name: 'worker', model, tools: [gate.tool] });
    expect(() => agent.interject('Anyone there?')).toThrow(AgentInterjectionError);
    expect(() => agent.interject('Anyone there?')).toThrow('Agent is not currently running');
    const execution = agent.start('Research the refund policy');
    await gate.running;
    const reply = execution.interject('Only the EU policy, please.', { interjectionId: 'i-1' });
    const same = agent.interject('Only the EU policy, please.', { interjectionId: 'i-1' });
    gate.open();
    const expected = { text: 'Noted: EU only.', toolCalls: true, interjectionIds: ['i-1'], batchKey: undefined };
    await expect(reply).resolves.toEqual(expected);
    await expect(same).resolves.toEqual(expected);
    await execution.wait();
    const message = model.calls[1]!.prompt.at(-1) as { content: Array<{ text: string }> };
    expect(message.content.map((part) => part.text)).toEqual([INTERJECTION_PREFIX, 'Only the EU policy, please.']);

    const a = gatedTool();
    const two = defineAgent({ name: 'worker', model: scriptedModel([slowTurn, slowTurn]), tools: [a.tool] });
    const first = two.start('One');
    const second = two.start('Two');
    expect(() => two.interject('Which one?')).toThrow('Agent interjection target is ambiguous');
    await Promise.all([first.close(), second.close()]);
    expect(() => execution.interject('Too late')).toThrow('Agent is not currently running');
  });

  it('calls onEvent with every event in order; a consumer that throws cancels the run and wait rejects with its error', async () => {
    const seen: string[] = [];
    const ok = defineAgent({ name: 'worker', model: scriptedModel([{ text: 'Hi.' }]) }).start('Hello', {
      onEvent: async (event: GhostlightEvent) => {
        seen.push(event.type);
      },
    });
    await ok.wait();
    expect(seen.at(0)).toBe('run-start');
    expect(seen.at(-1)).toBe('run-stop');

    const gate = gatedTool();
    const failing = defineAgent({ name: 'worker', model: scriptedModel([slowTurn]), tools: [gate.tool] }).start('Work', {
      onEvent: (event) => {
        if (event.type === 'tool-start') throw new Error('consumer broke');
      },
    });
    await expect(failing.wait()).rejects.toThrow('consumer broke');
    expect((await failing.run).outcome).toBe('cancelled');
    expect((await failing.run).errorInfo).toEqual({ name: 'CancelledError', message: 'The event consumer failed' });
  });

  it('resumes a waiting run when started with { approvals }', async () => {
    const executed: string[] = [];
    const tool = defineTool({
      name: 'deploy',
      description: 'Deploy.',
      input: v.strictObject({ env: v.string() }),
      needsApproval: true,
      execute: ({ env }) => (executed.push(env), `deployed ${env}`),
    });
    const sessions = new MemorySessionStore();
    const agent = defineAgent({ name: 'ops', model: scriptedModel([{ toolCalls: [{ id: 'd', name: 'deploy', input: { env: 'prod' } }] }, { text: 'Deployed.' }]), tools: [tool] });
    const waiting = await agent.start('Deploy', { sessions, sessionId: 's', actorId: 'ops' }).wait();
    expect(waiting.outcome).toBe('waiting');
    const resumed = agent.start({ approvals: [{ toolCallId: 'd', approved: true }] }, { sessions, sessionId: 's', actorId: 'ops' });
    expect((await resumed.wait()).response).toBe('Deployed.');
    expect(executed).toEqual(['prod']);
  });
});

describe('interjection deadlines (SPEC A18: expired waits are withdrawn)', () => {
  it('rejects a wait past its deadline with DeadlineExceededError and withdraws the undelivered interjection', async () => {
    const gate = gatedTool();
    const model = scriptedModel([slowTurn, { text: 'Finished without the interjection.' }]);
    const execution = defineAgent({ name: 'worker', model, tools: [gate.tool] }).start('Work');
    await gate.running;
    const late = execution.interject('Are you there?', { deadline: Date.now() + 5 });
    await expect(late).rejects.toThrow('The interjection deadline was reached');
    await expect(late).rejects.toSatisfy(DeadlineExceededError.isInstance);
    gate.open();
    const run = await execution.wait();
    expect(run.response).toBe('Finished without the interjection.');
    expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain('Are you there?');
    expect(run.events.some((event) => event.type === 'agent-interjection-delivered')).toBe(false);
  });
});

describe('interjection metadata (SPEC A18)', () => {
  it('governs tools from the boundary that delivers it until replaced, and agents used as tools inherit it', async () => {
    const { asTool } = await import('ghostlight');
    const gate = gatedTool();
    const seen: unknown[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Reads the interjection metadata.',
      input: v.strictObject({}),
      execute: (_input, binding) => (seen.push(binding.run.interjectionMetadata), 'ok'),
    });
    const childSaw: unknown[] = [];
    const child = defineAgent({
      name: 'child',
      model: scriptedModel([{ toolCalls: [{ name: 'child_probe', input: {} }] }, { text: 'child done' }]),
      tools: [defineTool({ name: 'child_probe', description: 'Reads the invocation metadata.', input: v.strictObject({}), execute: (_input, binding) => (childSaw.push(binding.run.invocation.metadata), 'ok') })],
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'probe', input: {} }, { name: 'slow_work', input: {} }] },
      { text: 'Switching to the audit.', toolCalls: [{ name: 'probe', input: {} }, { name: 'child', input: { input: 'check' } }] },
      { text: 'Done.' },
    ]);
    const execution = defineAgent({ name: 'worker', model, tools: [gate.tool, probe, asTool(child)] }).start('Work');
    await gate.running;
    const reply = execution.interject('Audit mode, please.', { metadata: { mode: 'audit' } });
    gate.open();
    await reply;
    expect((await execution.wait()).response).toBe('Done.');
    expect(seen).toEqual([undefined, { mode: 'audit' }]);
    expect(childSaw).toEqual([{ mode: 'audit' }]);
  });
});
