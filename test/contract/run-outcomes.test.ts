import { describe, expect, it } from 'vitest';
import { CleanupError, ConfigurationError, EMPTY_USAGE, InvocationError, defineAgent, defineTool } from 'ghostlight';
import type { RunCapability } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

const sleeper = defineTool({
  name: 'sleep',
  description: 'Sleep for a while.',
  input: {},
  execute: (_input, binding) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('woke'), 10_000);
      binding.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(binding.signal.reason);
      });
    }),
});

describe('run outcomes (C.75)', () => {
  it('ends partial at the deadline with the latest completed assistant text', async () => {
    const model = scriptedModel([{ text: 'Let me check.', toolCalls: [{ name: 'sleep', input: {} }] }, { text: 'never' }]);
    const run = await defineAgent({ name: 'deadline', model, tools: [sleeper] }).ask('go', { deadline: Date.now() + 150 });
    expect(run.outcome).toBe('partial');
    expect(run.response).toBe('Let me check.');
    expect(run.events.at(-1)).toMatchObject({ type: 'run-partial', response: 'Let me check.', error: { name: 'DeadlineExceededError' } });
  });

  it('ends partial with the partial text when the deadline hits mid-stream', async () => {
    const model = scriptedModel([{ text: 'Half an answer', delayMs: 5_000 }]);
    const run = await defineAgent({ name: 'midstream', model }).ask('go', { deadline: new Date(Date.now() + 100) });
    expect(run.outcome).toBe('partial');
    expect(run.response).toBe('Half an answer');
  });

  it('ends cancelled with an empty response when the signal aborts', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ text: 'Working on it.', toolCalls: [{ name: 'sleep', input: {} }] }]);
    const pending = defineAgent({ name: 'cancel', model, tools: [sleeper] }).ask('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const run = await pending;
    expect(run.outcome).toBe('cancelled');
    expect(run.response).toBe('');
    expect(run.events.at(-1)?.type).toBe('run-cancel');
    const already = await defineAgent({ name: 'cancel2', model: scriptedModel([{ text: 'x' }]) }).ask('go', { signal: AbortSignal.abort() });
    expect(already.outcome).toBe('cancelled');
  });

  it('fails with a safe message when the provider fails, keeping the original error for the application', async () => {
    const failure = Object.assign(new Error('upstream 500: internal key sk-123 invalid'), { statusCode: 500 });
    const run = await defineAgent({ name: 'provider', model: scriptedModel([{ error: failure }]) }).ask('go');
    expect(run.outcome).toBe('failed');
    expect(run.response).toBe('I hit an error while generating a response. Please retry.');
    expect(run.errorInfo).toEqual({ name: 'ProviderError', message: 'I hit an error while generating a response. Please retry.' });
    expect((run.error as { cause?: unknown }).cause).toBe(failure);
    expect(JSON.stringify(run)).not.toContain('sk-123');
  });

  it('fails with an output-limit message when the model stops at its token limit', async () => {
    const run = await defineAgent({ name: 'length', model: scriptedModel([{ text: 'Cut o', finishReason: 'length' }]) }).ask('go');
    expect(run.outcome).toBe('failed');
    expect(run.response).toBe('The model reached its output limit before completing a response. Please retry with a narrower request.');
  });

  it('turns a successful run into a failed one when cleanup fails', async () => {
    const broken = defineTool({ name: 'broken', description: 'x', input: {}, execute: () => 1, close: () => { throw new Error('close failed'); } });
    const run = await defineAgent({ name: 'cleanup', model: scriptedModel([{ text: 'done' }]), tools: [broken] }).ask('go');
    expect(run.outcome).toBe('failed');
    expect(run.cleanupFailed).toBe(true);
    expect(CleanupError.isInstance(run.error)).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-error', cleanupFailed: true });
  });

  it('throws only for bad configuration, before a run starts', async () => {
    const agent = defineAgent({ name: 'config', model: 'missing-role' });
    await expect(agent.ask('go')).rejects.toThrow(ConfigurationError);
    await expect(defineAgent({ name: 'empty', model: scriptedModel([]) }).ask('')).rejects.toThrow(InvocationError);
    await expect(defineAgent({ name: 'empty', model: scriptedModel([]) }).ask('go', { deadline: 'not a time' })).rejects.toThrow('deadline must be a valid time');
    expect(() => defineAgent({ name: '1bad', model: scriptedModel([]) })).toThrow(ConfigurationError);
    expect(() => defineAgent({ name: 'limits', model: scriptedModel([]), limits: { maxTurns: 0 } })).toThrow('maxTurns must be at least 1');
    const stream = agent.stream('go');
    await expect(stream.run).rejects.toThrow(ConfigurationError);
    await expect((async () => { for await (const _ of stream) { /* drain */ } })()).rejects.toThrow(ConfigurationError);
  });
});

describe('resource ownership (C.76)', () => {
  it('closes what the run opened in reverse order, before the terminal event, and never what the caller owns', async () => {
    const log: string[] = [];
    const callerOwned = { close: () => log.push('caller-owned closed') };
    const opener = (name: string): RunCapability => ({
      version: 'run-capability-v1',
      name,
      setup: ({ scope, emit }) => {
        log.push(`open ${name}`);
        scope.defer(() => {
          log.push(`close ${name}`);
          emit({ type: 'usage', turn: 0, usage: EMPTY_USAGE, total: EMPTY_USAGE });
        });
        return { bind: { callerOwned } };
      },
    });
    for (const turns of [[{ text: 'ok' }], [{ error: new Error('boom') }]]) {
      log.length = 0;
      const run = await defineAgent({ name: 'owner', model: scriptedModel(turns), capabilities: [opener('workspace'), opener('sandbox')] }).ask('go');
      expect(log).toEqual(['open workspace', 'open sandbox', 'close sandbox', 'close workspace']);
      const types = run.events.map((event) => event.type);
      expect(types.lastIndexOf('usage')).toBeLessThan(types.length - 1);
      expect(['run-stop', 'run-error']).toContain(types.at(-1));
    }
  });
});
