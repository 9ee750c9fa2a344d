import * as v from 'valibot';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, MAX_SESSION_JSON_DEPTH, MemorySessionStore, SessionActorError } from 'ghostlight';
import type { SessionStore } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

const note = defineTool({
  name: 'note',
  description: 'Remember a note.',
  input: v.strictObject({ text: v.string() }),
  execute: ({ text }, binding) => {
    binding.state.notes = [...((binding.state.notes as string[] | undefined) ?? []), text];
    return 'noted';
  },
});

describe('sessions (SPEC A16, C.72)', () => {
  it('restores history and state for the same session and actor', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ toolCalls: [{ name: 'note', input: { text: 'likes tea' } }] }, { text: 'Noted, Ada.' }, { text: 'You like tea.' }]);
    const agent = defineAgent({ name: 'memo', model, tools: [note], instructions: 'Remember things.' });
    const first = await agent.ask('I am Ada and I like tea', { sessions, sessionId: 's1', actorId: 'ada' });
    expect(first.outcome).toBe('completed');
    const second = await agent.ask('What do I like?', { sessions, sessionId: 's1', actorId: 'ada', history: [{ role: 'user', content: 'ignored: stored history wins' }] });
    expect(second.response).toBe('You like tea.');
    const prompt = model.calls[2]!.prompt;
    expect(prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(JSON.stringify(prompt)).not.toContain('ignored');
    expect(second.state).toEqual({ notes: ['likes tea'] });
  });

  it('refuses another actor before the run starts', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ text: 'hi' }]);
    const agent = defineAgent({ name: 'memo', model });
    await agent.ask('Hello', { sessions, sessionId: 's1', actorId: 'ada' });
    const refused = agent.ask('Hello', { sessions, sessionId: 's1', actorId: 'eve' });
    await expect(refused).rejects.toThrow('Session actor does not match');
    await expect(refused).rejects.toSatisfy(SessionActorError.isInstance);
    expect(model.calls).toHaveLength(1);
  });

  it('never persists transient messages or reasoning (system messages: see the store contract)', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ reasoning: 'secret thoughts', text: 'Visible answer' }]);
    const agent = defineAgent({ name: 'memo', model });
    const history: ModelMessage[] = [
      { role: 'user', content: 'Keep me' },
      { role: 'user', content: 'Discard me', providerOptions: { ghostlight: { transient: true } } },
    ];
    const run = await agent.ask('Question', { sessions, sessionId: 's1', actorId: 'ada', history });
    expect(run.error).toBeUndefined();
    const snapshot = await sessions.load('s1', { actorId: 'ada' });
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain('Discard me');
    expect(text).not.toContain('secret thoughts');
    expect(snapshot!.messages.map((message) => message.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('keeps the completed turns of a run that fails later', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ toolCalls: [{ name: 'note', input: { text: 'first' } }] }, { error: new Error('provider down') }]);
    const agent = defineAgent({ name: 'memo', model, tools: [note], settings: { maxRetries: 0 } });
    const run = await agent.ask('Note this', { sessions, sessionId: 's1', actorId: 'ada' });
    expect(run.outcome).toBe('failed');
    const snapshot = await sessions.load('s1', { actorId: 'ada' });
    expect(snapshot!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(snapshot!.state).toEqual({ notes: ['first'] });
  });

  it('never writes a value that could not be read back: a tool argument nested past MAX_SESSION_JSON_DEPTH fails the run, the session stays loadable', async () => {
    let deep: unknown = 'bottom';
    for (let index = 0; index < MAX_SESSION_JSON_DEPTH + 10; index++) deep = { a: deep };
    const sessions = new MemorySessionStore();
    await defineAgent({ name: 'memo', model: scriptedModel([{ text: 'first answer' }]) }).ask('Hello', { sessions, sessionId: 's-deep', actorId: 'ada' });
    const anything = defineTool({ name: 'anything', description: 'Takes anything.', input: { type: 'object' }, execute: () => 'ok' });
    const model = scriptedModel([{ toolCalls: [{ name: 'anything', input: deep }] }, { text: 'never' }]);
    const run = await defineAgent({ name: 'memo', model, tools: [anything] }).ask('Go deep', { sessions, sessionId: 's-deep', actorId: 'ada' });
    expect(run.outcome).toBe('failed');
    expect(run.errorInfo?.name).toBe('SessionStoreError');
    const snapshot = await sessions.load('s-deep', { actorId: 'ada' });
    expect(snapshot!.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('fails the run when the store cannot save', async () => {
    const broken: SessionStore = Object.assign(new MemorySessionStore(), {
      append: async () => {
        throw new Error('disk on fire');
      },
    });
    const run = await defineAgent({ name: 'memo', model: scriptedModel([{ text: 'hi' }]) }).ask('Hello', { sessions: broken, sessionId: 's1', actorId: 'ada' });
    expect(run.outcome).toBe('failed');
    expect(run.errorInfo?.name).toBe('SessionStoreError');
    expect(run.response).not.toContain('disk on fire');
  });

  it('serialises concurrent runs of one session so no turn is lost', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ text: 'one', delayMs: 30 }, { text: 'two' }]);
    const agent = defineAgent({ name: 'memo', model });
    const runs = await Promise.all([
      agent.ask('First', { sessions, sessionId: 's1', actorId: 'ada' }),
      agent.ask('Second', { sessions, sessionId: 's1', actorId: 'ada' }),
    ]);
    expect(runs.map((run) => run.outcome)).toEqual(['completed', 'completed']);
    const snapshot = await sessions.load('s1', { actorId: 'ada' });
    expect(snapshot!.messages).toHaveLength(4);
  });
});
