import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { CleanupError, ConfigurationError, ContextWindowOverflowError, defineAgent, defineTool, Instrumentation, MemorySessionStore } from 'ghostlight';
import type { InstrumentationSubscriber } from 'ghostlight';
import type { EventOf, GhostlightEvent } from 'ghostlight';
import { CONTEXT_DEFAULTS, estimateRequestTokens, manageContext, planCompaction, SUMMARIZATION_PROMPT } from 'ghostlight/context';
import anthropicPromptTooLong from '../fixtures/provider-errors/anthropic-prompt-too-long.json';
import anthropicRequestTooLarge from '../fixtures/provider-errors/anthropic-request-too-large.json';
import anthropicWindowStop from '../fixtures/provider-errors/anthropic-context-window-exceeded.json';
import groqOverflow from '../fixtures/provider-errors/groq-context-length-exceeded.json';
import openaiChatOverflow from '../fixtures/provider-errors/openai-chat-context-length-exceeded.json';
import openaiResponsesOverflow from '../fixtures/provider-errors/openai-responses-context-length-exceeded.json';
import vllmOverflow from '../fixtures/provider-errors/vllm-context-length.json';
import { anthropicText, chatText, errorAnswer, fixtureFetch } from '../support/fixture-fetch';
import { scriptedModel, scriptedUsage } from '../support/scripted-model';

const history = (count: number, filler = 'x'.repeat(50)): ModelMessage[] =>
  Array.from({ length: count }, (_, index) =>
    index % 2 === 0 ? { role: 'user' as const, content: `message-${index}-${filler}` } : { role: 'assistant' as const, content: `message-${index}-${filler}` },
  );

const small = { contextWindowTokens: 120, compressionThreshold: 0.5, summaryRatio: 0.5, preserveRecentMessages: 2 };

const compactions = (events: readonly GhostlightEvent[]) => events.filter((event): event is EventOf<'context-compaction'> => event.type === 'context-compaction');

/** The text of a provider prompt message (system content, or its text parts). */
const textOf = (message: LanguageModelV4CallOptions['prompt'][number] | undefined): string =>
  message === undefined
    ? ''
    : typeof message.content === 'string'
      ? message.content
      : (message.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');

const overflow = () =>
  new APICallError({
    message: "This model's maximum context length is 128000 tokens.",
    url: 'https://provider.test/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 400,
    responseBody: JSON.stringify(openaiChatOverflow.body),
  });

describe('manageContext (A17): options and the estimate', () => {
  it('has LittleGhost defaults and refuses values out of range', () => {
    expect(CONTEXT_DEFAULTS).toEqual({ contextWindowTokens: 200_000, compressionThreshold: 0.85, summaryRatio: 0.3, preserveRecentMessages: 10 });
    for (const bad of [{ contextWindowTokens: 0 }, { compressionThreshold: 2 }, { compressionThreshold: 0 }, { summaryRatio: 0.01 }, { summaryRatio: 0.9 }, { preserveRecentMessages: 1 }, { window: 10 }]) {
      expect(() => manageContext(bad as never), JSON.stringify(bad)).toThrow(ConfigurationError);
    }
    expect(() => manageContext({ compressionThreshold: 1, summaryRatio: 0.8, preserveRecentMessages: 2 })).not.toThrow();
  });

  it('estimates a request as the JSON length of instructions, messages and tools over four characters per token', () => {
    const tool = defineTool({ name: 'lookup', description: 'Look up.', input: { type: 'object' }, execute: () => '' });
    const request = { instructions: 'Be brief.', messages: [{ role: 'user' as const, content: 'hello' }], tools: [tool] };
    const json = JSON.stringify({ instructions: 'Be brief.', messages: request.messages, tools: [{ name: 'lookup', description: 'Look up.', inputSchema: { type: 'object' } }] });
    expect(estimateRequestTokens(request)).toBe(Math.ceil(json.length / 4));
    const bytes = new Uint8Array(300);
    const withImage = { instructions: undefined, messages: [{ role: 'user' as const, content: [{ type: 'file' as const, data: bytes, mediaType: 'image/png' }] }], tools: [] };
    const bare = JSON.stringify({ instructions: null, messages: [{ role: 'user', content: [{ type: 'file', data: '', mediaType: 'image/png' }] }], tools: [] });
    expect(estimateRequestTokens(withImage)).toBe(Math.ceil((bare.length + 400) / 4));
  });
});

describe('manageContext (A17): where the conversation is split', () => {
  const settings = { ...CONTEXT_DEFAULTS, summaryRatio: 0.4, preserveRecentMessages: 2 };
  const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'lookup', input: {} }] });
  const result = (id: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'lookup', output: { type: 'text', value: 'found' } }] });

  it('summarises the first max(floor(n × ratio), 1) messages, keeps system messages and the most recent ones', () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'rules' }, ...history(10)];
    const plan = planCompaction(messages, settings);
    expect(plan.trusted).toEqual([messages[0]]);
    expect(plan.summarized).toHaveLength(4);
    expect(plan.kept).toHaveLength(6);
    expect(planCompaction(history(3), settings).summarized).toHaveLength(1);
  });

  it('never parts a tool call from its result: the split moves past them', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'question' }, call('c1'), result('c1'), { role: 'assistant', content: 'answer' }, { role: 'user', content: 'next' }, { role: 'user', content: 'current' }];
    const plan = planCompaction(messages, settings); // floor(6 × 0.4) = 2 would split c1 from its result
    expect(plan.summarized).toEqual(messages.slice(0, 3));
    const parallel: ModelMessage[] = [{ role: 'user', content: 'q' }, call('a'), result('a'), call('b'), result('b'), call('c'), result('c'), { role: 'assistant', content: 'done' }, { role: 'user', content: 'more' }, { role: 'user', content: 'now' }];
    const { summarized, kept } = planCompaction(parallel, settings); // floor(10 × 0.4) = 4 would split b from its result
    expect(summarized).toEqual(parallel.slice(0, 5));
    expect(kept[0]).toBe(parallel[5]);
  });

  it('refuses when the recent messages to keep leave nothing to summarise', () => {
    expect(() => planCompaction(history(2), settings)).toThrow('Not enough conversation history to compact');
  });
});

describe('manageContext (A17): compaction in a run', () => {
  it('summarises the oldest messages with the same model into one user message and counts its usage', async () => {
    const model = scriptedModel([{ text: 'summary' }, { text: 'done' }]);
    const agent = defineAgent({ name: 'compacting', model, capabilities: [manageContext(small)] });
    const run = await agent.ask('current', { history: history(8) });

    expect(run.response).toBe('done');
    expect(model.calls).toHaveLength(2);
    const [summaryCall, finalCall] = model.calls;
    expect(summaryCall?.tools).toBeUndefined();
    expect(summaryCall?.prompt[0]).toEqual({ role: 'system', content: SUMMARIZATION_PROMPT });
    expect(textOf(summaryCall?.prompt[1])).toContain('User: message-0-');
    expect(textOf(summaryCall?.prompt[1])).toMatch(/Please summarize this conversation\.$/);
    expect(finalCall?.prompt[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'summary' }] });
    expect(JSON.stringify(finalCall?.prompt)).not.toContain('message-0-');
    expect(JSON.stringify(finalCall?.prompt)).toContain('message-7-');
    const perCall = scriptedUsage.inputTokens.total + scriptedUsage.outputTokens.total;
    expect(run.usage.totalTokens).toBe(2 * perCall);
    expect(compactions(run.events)).toEqual([
      expect.objectContaining({ reason: 'threshold', outcome: 'compacted', removedMessages: 3, contextWindowTokens: 120, usage: expect.objectContaining({ totalTokens: perCall }) }),
    ]);
    expect(run.messages[0]).toMatchObject({ role: 'user', content: 'summary', providerOptions: { ghostlight: { contextSummary: true } } });
    expect(run.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('reports the summary as a model operation (purpose context_compaction) and a context_compaction event', async () => {
    const seen: string[] = [];
    const subscriber: InstrumentationSubscriber = {
      start: (name, attributes) => void (name === 'model' && seen.push(`model:${String(attributes.purpose ?? 'turn')}`)),
      emit: (name, attributes) => void seen.push(`${name}:${String(attributes.reason)}:${String(attributes.outcome)}`),
    };
    const model = scriptedModel([{ text: 'summary' }, { text: 'done' }]);
    const instrumentation = new Instrumentation({ subscribers: [subscriber] });
    await defineAgent({ name: 'observed', model, instrumentation, capabilities: [manageContext(small)] }).ask('current', { history: history(8) });
    expect(seen).toEqual(['model:context_compaction', 'context_compaction:threshold:compacted', 'model:turn']);
  });

  it('keeps the agent instructions out of the summary and in every request', async () => {
    const model = scriptedModel([{ text: 'summary' }, { text: 'done' }]);
    await defineAgent({ name: 'instructed', model, instructions: 'Stay on topic.', capabilities: [manageContext(small)] }).ask('current', { history: history(8) });
    expect(JSON.stringify(model.calls[0]?.prompt)).not.toContain('Stay on topic.');
    expect(model.calls[1]?.prompt[0]).toEqual({ role: 'system', content: 'Stay on topic.' });
  });

  it('compacts against the model window when the capabilities know it, over contextWindowTokens', async () => {
    const model = scriptedModel([{ text: 'summary' }, { text: 'done' }]);
    const run = await defineAgent({
      name: 'known-window',
      model,
      modelCapabilities: { contextWindow: 120 },
      capabilities: [manageContext({ contextWindowTokens: 1_000_000, compressionThreshold: 0.5, summaryRatio: 0.5, preserveRecentMessages: 2 })],
    }).ask('current', { history: history(8) });
    expect(compactions(run.events)[0]).toMatchObject({ outcome: 'compacted', contextWindowTokens: 120 });
  });

  it('leaves a small request alone', async () => {
    const model = scriptedModel([{ text: 'done' }]);
    const run = await defineAgent({ name: 'small', model, capabilities: [manageContext()] }).ask('hi', { history: history(4) });
    expect(model.calls).toHaveLength(1);
    expect(compactions(run.events)).toEqual([]);
  });

  it('a proactive compaction that cannot work leaves the request unchanged and says why', async () => {
    const model = scriptedModel([{ text: 'done' }]);
    const run = await defineAgent({ name: 'too-short', model, capabilities: [manageContext({ ...small, preserveRecentMessages: 10 })] }).ask('x'.repeat(2_000));
    expect(run.outcome).toBe('completed');
    expect(model.calls).toHaveLength(1);
    expect(compactions(run.events)).toEqual([
      expect.objectContaining({ reason: 'threshold', outcome: 'failed', error: { name: 'ProtocolError', message: 'Not enough conversation history to compact' } }),
    ]);
  });

  it('a summary cut off at its output limit is an OutputLimitError, and the request goes on unchanged', async () => {
    const model = scriptedModel([{ text: 'half a summ', finishReason: 'length' }, { text: 'done' }]);
    const run = await defineAgent({ name: 'cut', model, capabilities: [manageContext(small)] }).ask('current', { history: history(8) });
    expect(run.response).toBe('done');
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('message-0-');
    expect(compactions(run.events)[0]).toMatchObject({ outcome: 'failed', error: { name: 'OutputLimitError', message: 'The context summary stopped before completion' }, usage: expect.any(Object) });
    expect(run.usage.totalTokens).toBe(2 * (scriptedUsage.inputTokens.total + scriptedUsage.outputTokens.total));
  });

  it('a cancellation during the summary cancels the run', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ text: 'summary', delayMs: 5_000, onCall: () => setTimeout(() => controller.abort(), 10) }, { text: 'never' }]);
    const run = await defineAgent({ name: 'cancel', model, capabilities: [manageContext(small)] }).ask('current', { history: history(8), signal: controller.signal });
    expect(run.outcome).toBe('cancelled');
    expect(model.calls).toHaveLength(1);
  });

  it('a CleanupError raised by the summary call propagates as it is', async () => {
    const cleanup = new CleanupError({ errors: [new Error('summary work is still running')] });
    const model = scriptedModel([{ error: cleanup }, { text: 'must not continue' }]);
    const run = await defineAgent({ name: 'cleanup', model, capabilities: [manageContext(small)] }).ask('current', { history: history(8) });
    expect(run.outcome).toBe('failed');
    expect(run.error).toBe(cleanup);
    expect(model.calls).toHaveLength(1);
  });
});

describe('manageContext (A17): recovery from a provider overflow', () => {
  const never = { contextWindowTokens: 1_000_000, compressionThreshold: 1, summaryRatio: 0.5, preserveRecentMessages: 2 };

  it('compacts once and retries when the provider reports ContextWindowOverflowError', async () => {
    const model = scriptedModel([{ error: overflow() }, { text: 'summary' }, { text: 'done' }]);
    const run = await defineAgent({ name: 'overflow', model, capabilities: [manageContext(never)] }).ask('current', { history: history(8, '') });
    expect(run.response).toBe('done');
    expect(model.calls).toHaveLength(3);
    expect(model.calls[2]?.prompt[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'summary' }] });
    expect(run.usage.totalTokens).toBe(2 * (scriptedUsage.inputTokens.total + scriptedUsage.outputTokens.total));
    expect(compactions(run.events)).toEqual([expect.objectContaining({ reason: 'overflow', outcome: 'compacted' })]);
    expect(run.events.filter((event) => event.type === 'model-start')).toHaveLength(2);
  });

  it('without context management an overflow fails the run as ContextWindowOverflowError with the safe message', async () => {
    const run = await defineAgent({ name: 'plain', model: scriptedModel([{ error: overflow() }]) }).ask('current');
    expect(run.outcome).toBe('failed');
    expect(ContextWindowOverflowError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo).toEqual({ name: 'ContextWindowOverflowError', message: 'I hit an error while generating a response. Please retry.' });
  });

  it('an overflow compaction that cannot work leaves the overflow as the run error', async () => {
    const model = scriptedModel([{ error: overflow() }]);
    const run = await defineAgent({ name: 'short', model, capabilities: [manageContext(never)] }).ask('current');
    expect(ContextWindowOverflowError.isInstance(run.error)).toBe(true);
    expect(compactions(run.events)).toEqual([expect.objectContaining({ reason: 'overflow', outcome: 'failed' })]);
  });

  it('works with sessions: the compacted conversation is what the session keeps and the next run loads', async () => {
    const sessions = new MemorySessionStore();
    const model = scriptedModel([{ text: 'summary' }, { text: 'first answer' }, { text: 'second answer' }]);
    const agent = defineAgent({ name: 'session', model, capabilities: [manageContext({ ...small, contextWindowTokens: 160 })] });
    await agent.ask('current', { history: history(8), sessions, sessionId: 's1', actorId: 'ada' });
    const stored = await sessions.load('s1', { actorId: 'ada' });
    expect(stored?.messages[0]).toMatchObject({ role: 'user', content: 'summary' });
    expect(JSON.stringify(stored?.messages)).not.toContain('message-0-');
    await defineAgent({ name: 'session', model }).ask('next', { sessions, sessionId: 's1', actorId: 'ada' });
    expect(model.calls[2]?.prompt[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'summary' }] });
  });

  it('lets a conversation run for many turns without failing on a small window', async () => {
    const sessions = new MemorySessionStore();
    const window = 400;
    let compacted = 0;
    const model = scriptedModel(
      Array.from({ length: 200 }, () => ({
        onCall: (options: LanguageModelV4CallOptions) => {
          if (JSON.stringify(options.prompt).length / 4 > window) throw overflow();
          if (textOf(options.prompt[0]) === SUMMARIZATION_PROMPT) compacted++;
        },
        text: 'An answer of a few words.',
      })),
    );
    const agent = defineAgent({ name: 'long', model, capabilities: [manageContext({ contextWindowTokens: window, preserveRecentMessages: 4 })] });
    for (let turn = 1; turn <= 60; turn++) {
      const run = await agent.ask(`Question number ${turn}, about something else.`, { sessions, sessionId: 'long', actorId: 'ada' });
      expect(run.outcome, `turn ${turn}`).toBe('completed');
    }
    expect(compacted).toBeGreaterThan(3);
  });
});

describe('context overflow error bodies replayed through the real provider packages', () => {
  const never = { contextWindowTokens: 1_000_000, compressionThreshold: 1, summaryRatio: 0.5, preserveRecentMessages: 2 };

  it('@ai-sdk/openai (chat): context_length_exceeded → compaction → success', async () => {
    const fetch = fixtureFetch([errorAnswer(openaiChatOverflow), chatText('A short summary.'), chatText('Answered.')]);
    const model = createOpenAI({ baseURL: 'https://openai.test/v1', apiKey: 'k', fetch }).chat('gpt-4o');
    const run = await defineAgent({ name: 'openai', model, capabilities: [manageContext(never)] }).ask('current', { history: history(8) });
    expect(run.response).toBe('Answered.');
    const last = fetch.bodies[2] as { messages: Array<{ role: string; content: unknown }> };
    expect(last.messages[0]).toEqual({ role: 'user', content: 'A short summary.' });
    expect((fetch.bodies[1] as { messages: Array<{ role: string; content: unknown }> }).messages[0]).toEqual({ role: 'system', content: SUMMARIZATION_PROMPT });
  });

  it('@ai-sdk/openai (Responses): context_length_exceeded is ContextWindowOverflowError', async () => {
    const fetch = fixtureFetch([errorAnswer(openaiResponsesOverflow)]);
    const model = createOpenAI({ baseURL: 'https://openai.test/v1', apiKey: 'k', fetch })('gpt-5');
    const run = await defineAgent({ name: 'responses', model }).ask('current');
    expect(run.errorInfo?.name).toBe('ContextWindowOverflowError');
    expect(fetch.bodies).toHaveLength(1);
  });

  it('@ai-sdk/anthropic: "prompt is too long" and 413 request_too_large → compaction → success', async () => {
    for (const fixture of [anthropicPromptTooLong, anthropicRequestTooLarge]) {
      const fetch = fixtureFetch([errorAnswer(fixture), anthropicText('Summary.'), anthropicText('Answered.')]);
      const model = createAnthropic({ baseURL: 'https://anthropic.test/v1', apiKey: 'k', fetch })('claude-sonnet-4-5');
      const run = await defineAgent({ name: 'anthropic', model, capabilities: [manageContext(never)] }).ask('current', { history: history(8) });
      expect(run.response, String(fixture.status)).toBe('Answered.');
      expect(compactions(run.events)).toEqual([expect.objectContaining({ reason: 'overflow', outcome: 'compacted' })]);
    }
  });

  it('@ai-sdk/anthropic: a stream that stops at model_context_window_exceeded → compaction → success', async () => {
    const fetch = fixtureFetch([{ kind: 'sse', events: anthropicWindowStop.events }, anthropicText('Summary.'), anthropicText('Answered.')]);
    const model = createAnthropic({ baseURL: 'https://anthropic.test/v1', apiKey: 'k', fetch })('claude-sonnet-4-5');
    const run = await defineAgent({ name: 'window-stop', model, capabilities: [manageContext(never)] }).ask('current', { history: history(8) });
    expect(run.response).toBe('Answered.');
    expect(run.steps).toHaveLength(1);
    const plain = await defineAgent({ name: 'window-stop-plain', model: createAnthropic({ baseURL: 'https://anthropic.test/v1', apiKey: 'k', fetch: fixtureFetch([{ kind: 'sse', events: anthropicWindowStop.events }]) })('claude-sonnet-4-5') }).ask('current');
    expect(plain.errorInfo?.name).toBe('ContextWindowOverflowError');
  });

  it('@ai-sdk/openai-compatible: vLLM and Groq overflow bodies → compaction → success', async () => {
    for (const fixture of [vllmOverflow, groqOverflow]) {
      const fetch = fixtureFetch([errorAnswer(fixture), chatText('Summary.'), chatText('Answered.')]);
      const model = createOpenAICompatible({ name: 'compatible', baseURL: 'https://compatible.test/v1', apiKey: 'k', fetch }).chatModel('llama');
      const run = await defineAgent({ name: 'compatible', model, capabilities: [manageContext(never)] }).ask('current', { history: history(8) });
      expect(run.response, fixture.provider).toBe('Answered.');
    }
  });
});
