import { testRuntime } from '#test-runtime';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { MemorySessionStore, ProtocolError, SessionActorError } from 'ghostlight';
import type { SessionStore } from 'ghostlight';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const stores: Record<string, () => SessionStore | Promise<SessionStore>> = {
  memory: () => new MemorySessionStore(),
  ...((testRuntime as { sessionStores?: Record<string, () => SessionStore | Promise<SessionStore>> }).sessionStores ?? {}),
};
let counter = 0;
const freshId = () => `session-${Date.now()}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

for (const [name, makeStore] of Object.entries(stores)) {
  describe(`session store contract: ${name}`, () => {
    it('starts empty, appends, and replaces', async () => {
      const store = await makeStore();
      const id = freshId();
      expect(await store.load(id, { actorId: 'ada' })).toBeUndefined();
      await store.append(id, { actorId: 'ada', messages: [user('one')], state: { step: 1 }, metadata: { source: 'test' }, expectedCount: 0 });
      await store.append(id, { actorId: 'ada', messages: [user('two'), user('three')], state: { step: 2 }, metadata: { source: 'test' }, expectedCount: 1 });
      expect(await store.load(id, { actorId: 'ada' })).toEqual({ messages: [user('one'), user('two'), user('three')], state: { step: 2 }, metadata: { source: 'test' } });
      await store.replace(id, { actorId: 'ada', messages: [user('only')], state: {}, metadata: {} });
      expect((await store.load(id, { actorId: 'ada' }))?.messages).toEqual([user('only')]);
    });

    it('claims nothing on a read: an unused id read by one actor is still free for another', async () => {
      const store = await makeStore();
      const id = freshId();
      expect(await store.load(id, { actorId: 'eve' })).toBeUndefined();
      await store.append(id, { actorId: 'ada', messages: [user('mine')], state: {}, metadata: {}, expectedCount: 0 });
      expect((await store.load(id, { actorId: 'ada' }))?.messages).toEqual([user('mine')]);
    });

    it('refuses another actor, from the first write on', async () => {
      const store = await makeStore();
      const id = freshId();
      await store.append(id, { actorId: 'ada', messages: [user('mine')], state: {}, metadata: {}, expectedCount: 0 });
      await expect(store.load(id, { actorId: 'eve' })).rejects.toThrow('Session actor does not match');
      await expect(store.append(id, { actorId: 'eve', messages: [user('x')], state: {}, metadata: {}, expectedCount: 1 })).rejects.toSatisfy(SessionActorError.isInstance);
      await expect(store.replace(id, { actorId: 'eve', messages: [], state: {}, metadata: {} })).rejects.toSatisfy(SessionActorError.isInstance);
      await expect(store.load(id, { actorId: undefined })).rejects.toSatisfy(SessionActorError.isInstance);
      expect((await store.load(id, { actorId: 'ada' }))?.messages).toEqual([user('mine')]);
    });

    it('lets exactly one of two concurrent first writes win', async () => {
      const store = await makeStore();
      const id = freshId();
      const outcomes = await Promise.allSettled([
        store.append(id, { actorId: 'ada', messages: [user('a')], state: {}, metadata: {}, expectedCount: 0 }),
        store.append(id, { actorId: 'eve', messages: [user('e')], state: {}, metadata: {}, expectedCount: 0 }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    });

    it('refuses an append whose expected count is stale', async () => {
      const store = await makeStore();
      const id = freshId();
      await store.append(id, { actorId: 'ada', messages: [user('one')], state: {}, metadata: {}, expectedCount: 0 });
      const stale = store.append(id, { actorId: 'ada', messages: [user('lost?')], state: {}, metadata: {}, expectedCount: 0 });
      await expect(stale).rejects.toThrow('Session changed while it was being updated');
      await expect(stale).rejects.toSatisfy(ProtocolError.isInstance);
      expect((await store.load(id, { actorId: 'ada' }))?.messages).toEqual([user('one')]);
    });

    it('never keeps system messages, transient messages, reasoning or provider continuity data', async () => {
      const store = await makeStore();
      const id = freshId();
      await store.append(id, {
        actorId: 'ada',
        messages: [
          { role: 'system', content: 'Injected system prompt' },
          { role: 'user', content: 'Discard me', providerOptions: { ghostlight: { transient: true } } },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'private chain of thought', providerOptions: { openai: { reasoningEncryptedContent: 'gAAAA' } } }, { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: {}, providerOptions: { openai: { itemId: 'fc_1' } } }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'reasoning without visible output' }] },
        ],
        state: {},
        metadata: {},
        expectedCount: 0,
      });
      const snapshot = await store.load(id, { actorId: 'ada' });
      expect(snapshot?.messages).toEqual([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: {} }] }]);
    });

    it('serialises runs of one session and not of different sessions', async () => {
      const store = await makeStore();
      const id = freshId();
      let active = 0;
      let most = 0;
      const work = async (sessionId: string) => {
        const release = await store.lock(sessionId, { actorId: 'ada' });
        active++;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active--;
        await release();
      };
      await Promise.all([work(id), work(id), work(id)]);
      expect(most).toBe(1);
      most = 0;
      await Promise.all([work(freshId()), work(freshId())]);
      expect(most).toBe(2);
    });

    it('stops waiting for a lock when the signal aborts', async () => {
      const store = await makeStore();
      const id = freshId();
      const release = await store.lock(id, { actorId: 'ada' });
      const controller = new AbortController();
      const waiting = store.lock(id, { actorId: 'ada', signal: controller.signal });
      controller.abort();
      await expect(waiting).rejects.toThrow();
      await release();
      const again = await store.lock(id, { actorId: 'ada' });
      await again();
    });
  });
}
