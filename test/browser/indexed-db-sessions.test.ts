import { describe, expect, it } from 'vitest';
import { IndexedDbSessionStore } from 'ghostlight/browser';
import { defineAgent } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

describe('IndexedDbSessionStore in Chromium', () => {
  it('continues a conversation with a new store instance (as after a reload)', async () => {
    const name = `ghostlight-reload-${crypto.randomUUID()}`;
    const model = scriptedModel([{ text: 'Nice to meet you, Ada.' }, { text: 'You are Ada.' }]);
    const agent = defineAgent({ name: 'memo', model });
    const before = new IndexedDbSessionStore({ name });
    await agent.ask('I am Ada', { sessions: before, sessionId: 'chat', actorId: 'local' });
    before.close();

    const after = new IndexedDbSessionStore({ name });
    const run = await agent.ask('Who am I?', { sessions: after, sessionId: 'chat', actorId: 'local' });
    expect(run.response).toBe('You are Ada.');
    expect(model.calls[1]!.prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    await expect(agent.ask('Who is she?', { sessions: after, sessionId: 'chat', actorId: 'stranger' })).rejects.toThrow('Session actor does not match');
    after.close();
  });
});
