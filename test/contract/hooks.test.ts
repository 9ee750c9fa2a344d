import { APICallError } from '@ai-sdk/provider';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import {
  cancel,
  CleanupError,
  ContextWindowOverflowError,
  defineAgent,
  defineTool,
  MAX_MODEL_RECOVERIES,
  MemorySessionStore,
  OutputLimitError,
  prepend,
  ProtocolError,
  replace,
  ToolLoopError,
} from 'ghostlight';
import type { AgentHooks, RunCapability, RuntimeHook } from 'ghostlight';
import { codeMode, defaultCodeEngine } from 'ghostlight/code-mode';
import { lookupTool } from '../support/code-tools';
import { scriptedModel } from '../support/scripted-model';

const lastUserText = (call: LanguageModelV4CallOptions | undefined): string => {
  const user = call?.prompt.findLast((message) => message.role === 'user');
  return (user?.content as Array<{ text?: string }> | undefined)?.map((part) => part.text ?? '').join('') ?? '';
};

const overflow = () =>
  new APICallError({ message: 'context_length_exceeded', url: 'https://provider.test', requestBodyValues: {}, statusCode: 400, responseBody: '{"error":{"code":"context_length_exceeded"}}' });

const echo = defineTool({ name: 'echo', description: 'Echo the input.', input: { type: 'object', properties: { text: { type: 'string' } } }, execute: ({ text }: { text?: string }) => text ?? '' });

describe('invocation hooks (A21)', () => {
  it('beforeInvocation sees the starting conversation and may replace it', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const seen: number[] = [];
    const run = await defineAgent({
      name: 'start',
      model,
      hooks: {
        beforeInvocation: ({ messages }) => {
          seen.push(messages.length);
          return replace([{ role: 'user' as const, content: 'Context: the customer is on the Pro plan.' }, ...messages]);
        },
      },
    }).ask('What plan am I on?', { history: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] });
    expect(seen).toEqual([3]);
    expect(model.calls[0]?.prompt).toHaveLength(4);
    expect(model.calls[0]?.prompt[0]).toMatchObject({ role: 'user', content: [{ text: 'Context: the customer is on the Pro plan.' }] });
    expect(run.messages[0]).toMatchObject({ content: 'Context: the customer is on the Pro plan.' });
  });

  it('beforeInvocation cancel ends the run cancelled before any model call', async () => {
    const model = scriptedModel([]);
    const run = await defineAgent({ name: 'closed', model, hooks: { beforeInvocation: () => cancel('Support is closed') } }).ask('hi');
    expect(run.outcome).toBe('cancelled');
    expect((run.error as Error).message).toBe('Support is closed');
    expect(model.calls).toHaveLength(0);
  });

  it('afterInvocation may replace the response, the output and the conversation (which the session keeps)', async () => {
    const sessions = new MemorySessionStore();
    const run = await defineAgent({
      name: 'signed',
      model: scriptedModel([{ text: 'Your order shipped.' }]),
      hooks: {
        afterInvocation: ({ result }) =>
          replace({
            response: `${result.response} — Ghostlight support`,
            output: `${String(result.output)} — Ghostlight support`,
            messages: [...result.messages, { role: 'assistant' as const, content: 'Anything else?' }],
          }),
      },
    }).ask('Where is my order?', { sessions, sessionId: 's', actorId: 'ada' });
    expect(run.response).toBe('Your order shipped. — Ghostlight support');
    expect(run.output).toBe('Your order shipped. — Ghostlight support');
    expect(run.events.at(-1)).toMatchObject({ type: 'run-stop', response: 'Your order shipped. — Ghostlight support' });
    expect((await sessions.load('s', { actorId: 'ada' }))?.messages.at(-1)).toMatchObject({ content: 'Anything else?' });
  });

  it('afterInvocation cancel ends the run cancelled', async () => {
    const run = await defineAgent({ name: 'withheld', model: scriptedModel([{ text: 'secret' }]), hooks: { afterInvocation: () => cancel('withheld') } }).ask('hi');
    expect(run.outcome).toBe('cancelled');
    expect(run.response).toBe('');
  });
});

describe('model hooks (A21)', () => {
  it('beforeModel sees the whole request and may replace messages, instructions, tools and settings', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const other = defineTool({ name: 'other', description: 'Other.', input: { type: 'object' }, execute: () => '' });
    const turns: number[] = [];
    await defineAgent({
      name: 'request',
      model,
      instructions: 'Be helpful.',
      tools: [echo, other],
      settings: { temperature: 1, maxOutputTokens: 500 },
      hooks: {
        beforeModel: ({ request, turn }) => {
          turns.push(turn);
          expect(request.instructions).toBe('Be helpful.');
          expect(request.tools.map((tool) => tool.name)).toEqual(['echo', 'other']);
          return replace({
            instructions: 'Be brief.',
            messages: [...request.messages, { role: 'user' as const, content: 'Answer in one line.' }],
            tools: request.tools.filter((tool) => tool.name === 'echo'),
            settings: { ...request.settings, temperature: 0 },
          });
        },
      },
    }).ask('go');
    expect(turns).toEqual([1]);
    const call = model.calls[0]!;
    expect(call.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(lastUserText(call)).toBe('Answer in one line.');
    expect(call.tools?.map((tool) => tool.name)).toEqual(['echo']);
    expect(call.temperature).toBe(0);
    expect(call.maxOutputTokens).toBe(500);
  });

  it('afterModel sees request and response and may replace the response (text and tool calls)', async () => {
    const model = scriptedModel([{ text: 'Calling.', toolCalls: [{ name: 'echo', input: { text: 'a' } }] }, { text: 'The answer is 42' }]);
    const run = await defineAgent({
      name: 'response',
      model,
      tools: [echo],
      hooks: {
        afterModel: ({ response, request, turn }) => {
          expect(request.messages.length).toBeGreaterThan(0);
          if (turn === 1) return replace({ ...response, toolCalls: response.toolCalls.map((call) => ({ ...call, input: { text: 'rewritten' } })) });
          return replace({ ...response, text: `${response.text}.` });
        },
      },
    }).ask('go');
    expect(run.steps[0]?.toolResults[0]?.content).toBe('rewritten');
    expect(run.response).toBe('The answer is 42.');
    expect(run.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The answer is 42.' }] });
    const sentBack = model.calls[1]?.prompt.find((message) => message.role === 'assistant');
    expect(JSON.stringify(sentBack)).toContain('rewritten');
  });

  it('afterModel cancel ends the run cancelled', async () => {
    const run = await defineAgent({ name: 'stop', model: scriptedModel([{ text: 'x' }]), hooks: { afterModel: () => cancel('enough') } }).ask('go');
    expect(run.outcome).toBe('cancelled');
  });

  it('afterModelError may replace the request: the call is made again with it, from beforeModel', async () => {
    const model = scriptedModel([{ error: overflow() }, { text: 'Fits now.' }]);
    const before: number[] = [];
    const run = await defineAgent({
      name: 'recover',
      model,
      hooks: {
        beforeModel: ({ request }) => void before.push(request.messages.length),
        afterModelError: ({ error, request, recovery, turn }) => {
          expect(ContextWindowOverflowError.isInstance(error)).toBe(true);
          expect([recovery, turn]).toEqual([0, 1]);
          return replace({ ...request, messages: request.messages.slice(-1) });
        },
      },
    }).ask('latest', { history: [{ role: 'user', content: 'old' }, { role: 'assistant', content: 'older' }] });
    expect(run.response).toBe('Fits now.');
    expect(before).toEqual([3, 1]);
    expect(model.calls[1]?.prompt).toHaveLength(1);
    expect(run.events.filter((event) => event.type === 'model-start')).toHaveLength(2);
  });

  it('afterModelError recovers a turn at most three times, then the error ends the run', async () => {
    const model = scriptedModel(Array.from({ length: 6 }, () => ({ error: overflow() })));
    const recoveries: number[] = [];
    const run = await defineAgent({
      name: 'limit',
      model,
      hooks: { afterModelError: ({ request, recovery }) => (recoveries.push(recovery), replace(request)) },
    }).ask('go');
    expect(MAX_MODEL_RECOVERIES).toBe(3);
    expect(recoveries).toEqual([0, 1, 2]);
    expect(model.calls).toHaveLength(4);
    expect(run.outcome).toBe('failed');
    expect(ContextWindowOverflowError.isInstance(run.error)).toBe(true);
  });

  it('afterModelError that does not replace leaves the error; cancel cancels the run', async () => {
    const kept = await defineAgent({ name: 'keep', model: scriptedModel([{ error: overflow() }]), hooks: { afterModelError: () => undefined } }).ask('go');
    expect(kept.outcome).toBe('failed');
    const cancelled = await defineAgent({ name: 'give-up', model: scriptedModel([{ error: overflow() }]), hooks: { afterModelError: () => cancel('no budget left') } }).ask('go');
    expect(cancelled.outcome).toBe('cancelled');
    expect((cancelled.error as Error).message).toBe('no budget left');
  });

  it('never offers a CleanupError or a cancellation to afterModelError', async () => {
    let offered = 0;
    const hooks: AgentHooks = { afterModelError: ({ request }) => (offered++, replace(request)) };
    const cleanup = new CleanupError({ errors: [new Error('late close')] });
    const failed = await defineAgent({ name: 'cleanup', model: scriptedModel([{ error: cleanup }, { text: 'no' }]), hooks }).ask('go');
    expect(failed.error).toBe(cleanup);
    const controller = new AbortController();
    const aborted = await defineAgent({ name: 'abort', model: scriptedModel([{ text: 'slow', delayMs: 5_000, onCall: () => setTimeout(() => controller.abort(), 10) }, { text: 'no' }]), hooks }).ask('go', { signal: controller.signal });
    expect(aborted.outcome).toBe('cancelled');
    expect(offered).toBe(0);
  });
});

describe('hook order, prepend and decisions', () => {
  it('runs capability hooks before the agent’s, prepended hooks before both, and feeds replacements on', async () => {
    const order: string[] = [];
    const capability: RunCapability = {
      version: 'run-capability-v1',
      name: 'audit',
      setup: () => ({
        hooks: {
          beforeModel: [
            ({ request }) => (order.push(`capability:${request.instructions}`), undefined),
            prepend(({ request }) => (order.push('capability-prepended'), replace({ ...request, instructions: 'A' }))),
          ],
        },
      }),
    };
    await defineAgent({
      name: 'order',
      model: scriptedModel([{ text: 'ok' }]),
      capabilities: [capability],
      hooks: {
        beforeModel: [
          ({ request }) => (order.push(`agent:${request.instructions}`), replace({ ...request, instructions: `${request.instructions}B` })),
          prepend(({ request }) => (order.push(`agent-prepended:${request.instructions}`), undefined)),
          ({ request }) => (order.push(`agent-last:${request.instructions}`), undefined),
        ],
      },
    }).ask('go');
    expect(order).toEqual(['capability-prepended', 'agent-prepended:A', 'capability:A', 'agent:A', 'agent-last:AB']);
  });

  it('a cancel stops the chain: later hooks do not run', async () => {
    const ran: string[] = [];
    await defineAgent({
      name: 'chain',
      model: scriptedModel([]),
      hooks: { beforeModel: [() => (ran.push('first'), cancel('stop')), () => void ran.push('second')] },
    }).ask('go');
    expect(ran).toEqual(['first']);
  });

  it('tool hooks apply to code-mode calls: afterTool replaces what the program receives', async () => {
    const source = 'return (await tools.lookup({ id: 3 })).name;';
    const model = scriptedModel([{ toolCalls: [{ name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const run = await defineAgent({
      name: 'code-hooks',
      model,
      tools: [lookupTool],
      hooks: {
        afterTool: ({ result, binding }) =>
          binding.caller === 'code' ? replace({ ...result, value: { name: 'redacted' }, content: '{"name":"redacted"}' }) : undefined,
      },
      capabilities: [codeMode({ engine: defaultCodeEngine() })],
    }).ask('go');
    expect(JSON.parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({ status: 'completed', value: 'redacted' });
  });
});

describe('runtime hooks (A1)', () => {
  it('prepareRun registers run-scoped resources, closed with the run in reverse order', async () => {
    const closed: string[] = [];
    const hook: RuntimeHook = {
      prepareRun: ({ scope, run, binding }) => {
        expect(binding.run).toBe(run);
        scope.defer(() => closed.push('first'));
        scope.own({ close: () => void closed.push('second') });
      },
    };
    const run = await defineAgent({ name: 'prepared', model: scriptedModel([{ text: 'ok' }]), runtimeHooks: [hook] }).ask('go');
    expect(run.outcome).toBe('completed');
    expect(closed).toEqual(['second', 'first']);
  });

  it('a failing prepareRun fails the run before it starts (ask throws) and closes what was opened', async () => {
    const closed: string[] = [];
    const agent = defineAgent({
      name: 'refused',
      model: scriptedModel([]),
      runtimeHooks: [{ prepareRun: ({ scope }) => (scope.defer(() => closed.push('closed')), Promise.reject(new Error('tenant unavailable'))) }],
    });
    await expect(agent.ask('go')).rejects.toThrow('tenant unavailable');
    expect(closed).toEqual(['closed']);
  });

  it('sessionHistory chooses the history: the first hook that answers wins, else stored over fallback', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const agent = defineAgent({ name: 'history', model });
    await agent.ask('first', { sessions, sessionId: 's', actorId: 'ada' });
    const fallback = [{ role: 'user' as const, content: 'from the client' }];
    const seen: Array<[number, number]> = [];
    const hooks: RuntimeHook[] = [
      { sessionHistory: ({ stored, fallback: given }) => (seen.push([stored.length, given.length]), undefined) },
      { sessionHistory: ({ fallback: given }) => given },
      { sessionHistory: () => [] },
    ];
    await agent.ask('second', { sessions, sessionId: 's', actorId: 'ada', history: fallback, runtimeHooks: hooks });
    expect(seen).toEqual([[2, 1]]);
    expect(model.calls[1]?.prompt.map((message) => message.role)).toEqual(['user', 'user']);
    expect(lastUserText({ prompt: model.calls[1]!.prompt.slice(0, 1) } as LanguageModelV4CallOptions)).toBe('from the client');
    await agent.ask('third', { sessions, sessionId: 's', actorId: 'ada', history: fallback });
    expect(model.calls[2]?.prompt[0]).toMatchObject({ content: [{ text: 'from the client' }] }); // the stored (replaced) history
  });

  it('errorMessage hooks give failed runs their message: the run’s first, then the agent’s; a throwing hook is skipped', async () => {
    const failing = () => scriptedModel([{ error: new APICallError({ message: 'boom', url: 'u', requestBodyValues: {}, statusCode: 400 }) }]);
    const agentHook: RuntimeHook = { errorMessage: (error) => (ProtocolError.isInstance(error) ? undefined : 'The agent could not answer.') };
    const run = await defineAgent({ name: 'mapped', model: failing(), runtimeHooks: [agentHook] }).ask('go', {
      runtimeHooks: [{ errorMessage: () => { throw new Error('bug'); } }, { errorMessage: () => undefined }],
    });
    expect(run.response).toBe('The agent could not answer.');
    expect(run.errorInfo).toEqual({ name: 'ProviderError', message: 'The agent could not answer.' });
    const first = await defineAgent({ name: 'mapped2', model: failing(), runtimeHooks: [agentHook] }).ask('go', { runtimeHooks: [{ errorMessage: () => 'Run-level message.' }] });
    expect(first.response).toBe('Run-level message.');
  });

  it('without hooks, failed runs get the default safe messages', async () => {
    const output = await defineAgent({ name: 'cut', model: scriptedModel([{ text: 'half', finishReason: 'length' }]) }).ask('go');
    expect(OutputLimitError.isInstance(output.error)).toBe(true);
    expect(output.response).toBe('The model reached its output limit before completing a response. Please retry with a narrower request.');
    const provider = await defineAgent({ name: 'down', model: scriptedModel([{ error: new APICallError({ message: 'secret upstream detail', url: 'u', requestBodyValues: {}, statusCode: 400 }) }]) }).ask('go');
    expect(provider.response).toBe('I hit an error while generating a response. Please retry.');
    expect(JSON.stringify(provider.toJSON())).not.toContain('secret upstream detail');
    const loop = await defineAgent({
      name: 'loop',
      model: scriptedModel(Array.from({ length: 6 }, () => ({ toolCalls: [{ name: 'echo', input: { text: 'same' } }] }))),
      tools: [echo],
      detectToolLoops: true,
    }).ask('go');
    expect(ToolLoopError.isInstance(loop.error)).toBe(true);
    expect(loop.response).toBe((loop.error as Error).message);
  });
});
