import { testRuntime } from '#test-runtime';
import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import type { Run, SessionStore } from 'ghostlight';
import { conversationSessionId, parentLink, registrySessionId, subagents } from 'ghostlight/subagents';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';
import type { ScriptedTurn } from '../support/scripted-model';

type Value = Record<string, any>;
const stores: Record<string, () => SessionStore | Promise<SessionStore>> = {
  memory: () => new MemorySessionStore(),
  ...((testRuntime as { sessionStores?: Record<string, () => SessionStore | Promise<SessionStore>> }).sessionStores ?? {}),
};
let counter = 0;
const freshSession = () => `chat-${Date.now()}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
const values = (run: Run): Value[] => run.steps.flatMap((step) => step.toolResults.map((result) => result.value as Value));
const call = (name: string, input: unknown): ScriptedTurn => ({ toolCalls: [{ name, input }] });
const spawnNotes = call('spawn_subagent', { kind: 'notes', task_name: 'notes', task: 'Remember that the launch is on Friday', mode: 'sync' });
const follow = (message: string) => call('send_message_to_subagent', { subagent_id: '/root/notes', message, mode: 'sync' });

/** A note-taker that answers from everything it was told (so a restored history shows in its answers). */
function noteTaker(options: { failWhen?: string } = {}) {
  const model = respondingModel((request) => {
    const asked = lastUserText(request);
    if (options.failWhen && asked.includes(options.failWhen)) return { error: new Error('provider down') };
    const told = request.prompt.filter((message) => message.role === 'user').length;
    return { text: `I was told ${told} thing(s); latest: ${asked}` };
  });
  return { model, agent: defineAgent({ name: 'notes', model, settings: { maxRetries: 0 } }) };
}

function leadOn(turns: ScriptedTurn[], child: ReturnType<typeof noteTaker>, persist = true) {
  return defineAgent({
    name: 'lead',
    model: scriptedModel([...turns, { text: 'done' }]),
    capabilities: [subagents([{ kind: 'notes', agent: child.agent, description: 'Keeps notes', persist }])],
  });
}

for (const [name, makeStore] of Object.entries(stores)) {
  describe(`durable subagents: ${name} session store (SPEC A14 persistence)`, () => {
    it('restores the registry and the conversation transparently in a later run of the session', async () => {
      const sessions = await makeStore();
      const sessionId = freshSession();
      const options = { sessions, sessionId, actorId: 'ada' };
      const child = noteTaker();
      const first = await leadOn([spawnNotes], child).ask('Take a note', options);
      expect(values(first)[0]).toMatchObject({ status: 'finished', response: 'I was told 1 thing(s); latest: Remember that the launch is on Friday' });

      const second = await leadOn([call('list_subagents', {}), call('wait_for_subagents', {}), follow('When is the launch?')], child).ask('What did the notes say?', options);
      const [listed, waited, followed] = values(second);
      expect(listed).toMatchObject({ status: 'ok', subagents: [{ subagent_id: '/root/notes', kind: 'notes', status: 'idle', latest_turn: 1, resumed: true }] });
      // A restored identity is not active until it gets a message: waiting for all does not include it.
      expect(waited).toEqual({ status: 'finished', subagents: [] });
      expect(followed).toMatchObject({ status: 'finished', subagent_id: '/root/notes', turn: 2, response: 'I was told 2 thing(s); latest: When is the launch?' });
      const restoredPrompt = child.model.calls[1]!.prompt.filter((message) => message.role !== 'system');
      expect(restoredPrompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(restoredPrompt[1])).toContain('launch is on Friday');

      const registry = await sessions.load(registrySessionId(await parentLink('ada', sessionId)), { actorId: 'ada' });
      const record = (registry!.state as Value).conversations['/root/notes'];
      expect(record).toMatchObject({ kind: 'notes', latest_turn: 2, message_count: 4 });
      const conversation = await sessions.load(conversationSessionId(record.conversation_id), { actorId: 'ada' });
      expect(conversation!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    });

    it('commits nothing for a failed durable turn', async () => {
      const sessions = await makeStore();
      const sessionId = freshSession();
      const options = { sessions, sessionId, actorId: 'ada' };
      const child = noteTaker({ failWhen: 'explode' });
      await leadOn([spawnNotes], child).ask('Take a note', options);
      const registryId = registrySessionId(await parentLink('ada', sessionId));
      const before = await sessions.load(registryId, { actorId: 'ada' });
      const failed = await leadOn([follow('please explode')], child).ask('Again', options);
      expect(values(failed)[0]).toMatchObject({ status: 'failed', error: 'Subagent turn failed.' });
      expect(await sessions.load(registryId, { actorId: 'ada' })).toEqual(before);
      const record = (before!.state as Value).conversations['/root/notes'];
      expect((await sessions.load(conversationSessionId(record.conversation_id), { actorId: 'ada' }))!.messages).toHaveLength(2);
      const third = await leadOn([follow('Still there?')], child).ask('Third', options);
      expect(values(third)[0]).toMatchObject({ status: 'finished', turn: 2, response: 'I was told 2 thing(s); latest: Still there?' });
    });

    it('keeps persist: false conversations local to the run, and another session never sees them', async () => {
      const sessions = await makeStore();
      const sessionId = freshSession();
      const child = noteTaker();
      await leadOn([spawnNotes], child, false).ask('Take a note', { sessions, sessionId, actorId: 'ada' });
      expect(await sessions.load(registrySessionId(await parentLink('ada', sessionId)), { actorId: 'ada' })).toBeUndefined();
      const later = await leadOn([call('list_subagents', {})], child, false).ask('List', { sessions, sessionId, actorId: 'ada' });
      expect(values(later)[0]).toEqual({ status: 'ok', subagents: [] });

      const durableSession = freshSession();
      await leadOn([spawnNotes], child).ask('Take a note', { sessions, sessionId: durableSession, actorId: 'ada' });
      const elsewhere = await leadOn([call('list_subagents', {})], child).ask('List', { sessions, sessionId: freshSession(), actorId: 'ada' });
      expect(values(elsewhere)[0]).toEqual({ status: 'ok', subagents: [] });
    });
  });
}

describe('durable subagents: commit order', () => {
  it('leaves a turn whose registry write failed invisible, and cuts its transcript back on restore', async () => {
    const sessions = new MemorySessionStore();
    let failRegistry = false;
    const flaky: SessionStore = {
      version: 'session-store-v1',
      load: (id, access) => sessions.load(id, access),
      append: (id, update) => sessions.append(id, update),
      lock: (id, access) => sessions.lock(id, access),
      replace: async (id, snapshot) => {
        if (failRegistry && id.startsWith('ghostlight_subagent_registry_')) throw new Error('disk full');
        return sessions.replace(id, snapshot);
      },
    };
    const sessionId = freshSession();
    const options = { sessions: flaky, sessionId, actorId: 'ada' };
    const child = noteTaker();
    await leadOn([spawnNotes], child).ask('Take a note', options);
    failRegistry = true;
    const failed = await leadOn([follow('lost turn')], child).ask('Again', options);
    expect(values(failed)[0]).toMatchObject({ status: 'failed' });
    failRegistry = false;
    const registry = await sessions.load(registrySessionId(await parentLink('ada', sessionId)), { actorId: 'ada' });
    const record = (registry!.state as Value).conversations['/root/notes'];
    expect(record.message_count).toBe(2);
    const conversationId = conversationSessionId(record.conversation_id);
    expect((await sessions.load(conversationId, { actorId: 'ada' }))!.messages).toHaveLength(4);
    const restored = await leadOn([follow('What do you know?')], child).ask('Third', options);
    expect(values(restored)[0]).toMatchObject({ status: 'finished', turn: 2, response: 'I was told 2 thing(s); latest: What do you know?' });
    expect(JSON.stringify(child.model.calls.at(-1)!.prompt)).not.toContain('lost turn');
    expect((await sessions.load(conversationId, { actorId: 'ada' }))!.messages).toHaveLength(4);
  });

  it('refuses a registry session written by something else', async () => {
    const sessions = new MemorySessionStore();
    const sessionId = freshSession();
    const registryId = registrySessionId(await parentLink('ada', sessionId));
    await sessions.replace(registryId, { actorId: 'ada', messages: [], state: { version: 1, conversations: {} }, metadata: { forged: true } });
    const run = leadOn([], noteTaker()).ask('Hi', { sessions, sessionId, actorId: 'ada' });
    await expect(run).rejects.toThrow('Subagent session metadata does not match its parent conversation');
  });
});
