import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { IndexedDbSessionStore } from 'ghostlight/browser';
import { defineAgent, defineTool, pendingApprovalsIn } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

function refundTool() {
  const executed: number[] = [];
  const tool = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    input: v.strictObject({ amount: v.number() }),
    needsApproval: true,
    execute: ({ amount }) => (executed.push(amount), `refunded ${amount}`),
  });
  return { tool, executed };
}

describe('approvals kept in IndexedDB (Chromium)', () => {
  it('keeps a pending approval across a reload (a new store instance) and resumes it there', async () => {
    const name = `ghostlight-approvals-${crypto.randomUUID()}`;
    const first = refundTool();
    const before = new IndexedDbSessionStore({ name });
    const waiting = await defineAgent({ name: 'support', model: scriptedModel([{ toolCalls: [{ id: 'r', name: 'refund', input: { amount: 90 } }] }]), tools: [first.tool] }).ask(
      'Refund 90',
      { sessions: before, sessionId: 'chat', actorId: 'local' },
    );
    expect(waiting.outcome).toBe('waiting');
    before.close();

    const after = new IndexedDbSessionStore({ name });
    const pending = pendingApprovalsIn(await after.load('chat', { actorId: 'local' }));
    expect(pending).toEqual(waiting.pendingApprovals);
    const again = refundTool();
    const agent = defineAgent({ name: 'support', model: scriptedModel([{ text: 'Refunded 90.' }]), tools: [again.tool] });
    const resumed = await agent.resume([{ approvalId: pending[0]!.approvalId, approved: true }], { sessions: after, sessionId: 'chat', actorId: 'local' });
    expect(resumed.response).toBe('Refunded 90.');
    expect(again.executed).toEqual([90]);
    expect(first.executed).toEqual([]);
    after.close();
  });

  it('runs the call once when two tabs (two store instances) answer at the same time', async () => {
    const name = `ghostlight-approvals-race-${crypto.randomUUID()}`;
    const { tool, executed } = refundTool();
    const setup = new IndexedDbSessionStore({ name });
    const model = scriptedModel([{ toolCalls: [{ id: 'r', name: 'refund', input: { amount: 5 } }] }, { text: 'Done.' }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'support', model, tools: [tool] });
    const waiting = await agent.ask('Refund 5', { sessions: setup, sessionId: 'chat', actorId: 'local' });
    setup.close();
    const tabs = [new IndexedDbSessionStore({ name }), new IndexedDbSessionStore({ name })];
    const answer = [{ approvalId: waiting.pendingApprovals[0]!.approvalId, approved: true }];
    const results = await Promise.allSettled(tabs.map((sessions) => agent.resume(answer, { sessions, sessionId: 'chat', actorId: 'local' })));
    expect(executed).toEqual([5]);
    expect(results.filter((result) => result.status === 'fulfilled' && result.value.outcome === 'completed')).toHaveLength(1);
    for (const tab of tabs) tab.close();
  });
});
