import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineAgent } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AgUiEncoder } from 'ghostlight/ag-ui';
import { UiMessageEncoder } from 'ghostlight/ui-stream';
import anthropicOverloaded from '../fixtures/provider-errors/anthropic-overloaded.json';
import compatibleUnavailable from '../fixtures/provider-errors/openai-compatible-unavailable.json';
import openaiServerError from '../fixtures/provider-errors/openai-server-error.json';
import { anthropicText, chatText, errorAnswer, fixtureFetch } from '../support/fixture-fetch';
import { scriptedModel } from '../support/scripted-model';

const httpError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://provider.test/v1/chat',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: '{"error":{"message":"busy"}}',
  });

const retries = (events: readonly GhostlightEvent[]) => events.filter((event) => event.type === 'model-retry');

/** Lets the run reach its next wait, then moves the fake clock. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('model retries (A13 model_retry, A20 retries)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a 503 after 1 s, reports it as model-retry, and completes', async () => {
    const model = scriptedModel([{ error: httpError(503) }, { text: 'Recovered.' }]);
    const pending = defineAgent({ name: 'retry', model }).ask('go');
    await advance(999);
    expect(model.calls).toHaveLength(1);
    await advance(1);
    const run = await pending;
    expect(model.calls).toHaveLength(2);
    expect(run.outcome).toBe('completed');
    expect(run.response).toBe('Recovered.');
    expect(retries(run.events)).toEqual([
      expect.objectContaining({ type: 'model-retry', turn: 1, attempt: 1, delay: 1_000, errorClass: 'AI_APICallError', partialText: '', httpStatus: 503 }),
    ]);
  });

  it('doubles the backoff from 1 s and caps it at 16 s', async () => {
    const model = scriptedModel([...Array.from({ length: 6 }, () => ({ error: httpError(500) })), { text: 'ok' }]);
    const pending = defineAgent({ name: 'backoff', model, settings: { maxRetries: 6 } }).ask('go');
    await advance(1_000 + 2_000 + 4_000 + 8_000 + 16_000 + 16_000);
    const run = await pending;
    expect(run.outcome).toBe('completed');
    expect(retries(run.events).map((event) => event.delay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 16_000]);
  });

  it('honours retry-after (seconds) and retry-after-ms when they ask for longer', async () => {
    const model = scriptedModel([{ error: httpError(429, { 'retry-after': '5' }) }, { error: httpError(429, { 'retry-after-ms': '2500' }) }, { text: 'ok' }]);
    const pending = defineAgent({ name: 'after', model }).ask('go');
    await advance(4_999);
    expect(model.calls).toHaveLength(1);
    await advance(1 + 2_500);
    const run = await pending;
    expect(retries(run.events).map((event) => [event.delay, event.httpStatus])).toEqual([[5_000, 429], [2_500, 429]]);
    expect(run.outcome).toBe('completed');
  });

  it('retries 408 and 409 and unanswered calls, but never a 400, 401 or 404', async () => {
    for (const status of [408, 409]) {
      const model = scriptedModel([{ error: httpError(status) }, { text: 'ok' }]);
      const pending = defineAgent({ name: 'transient', model }).ask('go');
      await advance(1_000);
      expect((await pending).outcome).toBe('completed');
    }
    const unanswered = scriptedModel([{ error: new APICallError({ message: 'fetch failed', url: 'https://provider.test', requestBodyValues: {} }) }, { text: 'ok' }]);
    const pendingUnanswered = defineAgent({ name: 'unanswered', model: unanswered }).ask('go');
    await advance(1_000);
    expect(retries((await pendingUnanswered).events)[0]).not.toHaveProperty('httpStatus');
    for (const status of [400, 401, 404]) {
      const model = scriptedModel([{ error: httpError(status) }, { text: 'never' }]);
      const run = await defineAgent({ name: 'permanent', model }).ask('go');
      expect(run.outcome).toBe('failed');
      expect(model.calls).toHaveLength(1);
      expect(retries(run.events)).toEqual([]);
    }
  });

  it('gives up after maxRetries (default 2) with a ProviderError and the safe message', async () => {
    const model = scriptedModel([{ error: httpError(502) }, { error: httpError(502) }, { error: httpError(502) }]);
    const pending = defineAgent({ name: 'exhausted', model }).ask('go');
    await advance(3_000);
    const run = await pending;
    expect(model.calls).toHaveLength(3);
    expect(retries(run.events).map((event) => event.attempt)).toEqual([1, 2]);
    expect(run.outcome).toBe('failed');
    expect(run.errorInfo).toEqual({ name: 'ProviderError', message: 'I hit an error while generating a response. Please retry.' });
  });

  it('retries a stream that fails mid-way, reporting the superseded text, and keeps only the new attempt', async () => {
    const overloaded = { message: 'Overloaded', type: 'overloaded_error', statusCode: 529, isRetryable: true };
    const model = scriptedModel([{ text: 'Hello wor', streamError: overloaded }, { text: 'Hello world.' }]);
    const stream = defineAgent({ name: 'midway', model }).stream('go');
    await advance(1_000);
    const run = await stream.run;
    expect(run.response).toBe('Hello world.');
    expect(run.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Hello world.' }] });
    const [retry] = retries(run.events);
    expect(retry).toMatchObject({ attempt: 1, partialText: 'Hello wor', errorClass: 'ProviderStreamError', httpStatus: 529 });
    const starts = run.events.filter((event) => event.type === 'message-start');
    expect(starts).toHaveLength(2);
    expect(run.events.filter((event) => event.type === 'model-start')).toHaveLength(1);

    // AG-UI: the open text message is closed before the custom event, which names it as superseded.
    const agui = new AgUiEncoder({ threadId: 't', runId: 'r' });
    const encoded = run.events.flatMap((event) => agui.encode(event));
    const at = encoded.findIndex((event) => event.type === 'CUSTOM' && event.name === 'ghostlight.model_retry');
    const firstId = (encoded.find((event) => event.type === 'TEXT_MESSAGE_START') as { messageId: string }).messageId;
    expect(encoded[at - 1]).toMatchObject({ type: 'TEXT_MESSAGE_END', messageId: firstId });
    expect(encoded[at]).toMatchObject({ value: { attempt: 1, delay: 1_000, partialText: 'Hello wor', supersededMessageId: firstId, httpStatus: 529 } });
    const starts2 = encoded.filter((event) => event.type === 'TEXT_MESSAGE_START').map((event) => (event as { messageId: string }).messageId);
    expect(starts2).toHaveLength(2);
    expect(starts2[1]).not.toBe(firstId);

    // UI message stream: the text part is ended and a data part names it, so a UI can drop it.
    const ui = new UiMessageEncoder();
    const chunks = run.events.flatMap((event) => ui.encode(event));
    const dataAt = chunks.findIndex((chunk) => chunk.type === 'data-ghostlight-model-retry');
    const textId = (chunks.find((chunk) => chunk.type === 'text-start') as { id: string }).id;
    expect(chunks[dataAt - 1]).toEqual({ type: 'text-end', id: textId });
    expect(chunks[dataAt]).toMatchObject({ data: { supersededTextId: textId, partialText: 'Hello wor', attempt: 1 } });
  });

  it('retries a dropped connection while streaming, and closes the superseded tool call in AG-UI', async () => {
    const model = scriptedModel([
      { text: 'Looking', toolCalls: [{ id: 'call-lost', name: 'lookup', input: {} }], dropAfterText: true },
      { text: 'Done.' },
    ]);
    const pending = defineAgent({ name: 'dropped', model }).ask('go');
    await advance(1_000);
    const run = await pending;
    expect(run.outcome).toBe('completed');
    expect(retries(run.events)).toEqual([expect.objectContaining({ errorClass: 'TypeError', partialText: 'Looking' })]);
    expect(run.steps.flatMap((step) => step.toolCalls)).toEqual([]);
    const agui = new AgUiEncoder({ threadId: 't', runId: 'r' });
    const encoded = run.events.flatMap((event) => agui.encode(event));
    const ends = encoded.filter((event) => event.type === 'TOOL_CALL_END').map((event) => (event as { toolCallId: string }).toolCallId);
    expect(ends).toEqual(['call-lost']);
  });

  it('never waits past the deadline: the delay is cut to the time left, then the run ends partial', async () => {
    const model = scriptedModel([{ error: httpError(503) }, { error: httpError(503) }, { text: 'late' }]);
    const pending = defineAgent({ name: 'deadline', model }).ask('go', { deadline: Date.now() + 1_500 });
    await advance(1_500);
    const run = await pending;
    expect(retries(run.events).map((event) => event.delay)).toEqual([1_000, 500]);
    expect(run.outcome).toBe('partial');
    expect(run.errorInfo?.name).toBe('DeadlineExceededError');
    expect(model.calls).toHaveLength(2);
  });

  it('ends a retry wait at once when the run is cancelled', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ error: httpError(503) }, { text: 'never' }]);
    const pending = defineAgent({ name: 'cancel', model }).ask('go', { signal: controller.signal });
    await advance(10);
    controller.abort();
    const run = await pending;
    expect(run.outcome).toBe('cancelled');
    expect(model.calls).toHaveLength(1);
  });

  it('a structured turn retried mid-stream publishes only the new attempt', async () => {
    const model = scriptedModel([{ text: '{"ok":', dropAfterText: true }, { text: '{"ok":true}' }]);
    const agent = defineAgent({
      name: 'structured',
      model,
      modelCapabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true },
      result: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
    });
    const pending = agent.ask('go');
    await advance(1_000);
    const run = await pending;
    expect(run.output).toEqual({ ok: true });
    expect(retries(run.events)).toEqual([expect.objectContaining({ partialText: '' })]);
    expect(run.events.filter((event) => event.type === 'message-start')).toHaveLength(1);
  });
});

describe('transient provider failures replayed through the real provider packages', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('@ai-sdk/anthropic: 529 overloaded_error is retried and the answer follows', async () => {
    const fetch = fixtureFetch([errorAnswer(anthropicOverloaded), anthropicText('Back online.')]);
    const model = createAnthropic({ baseURL: 'https://anthropic.test/v1', apiKey: 'k', fetch })('claude-sonnet-4-5');
    const pending = defineAgent({ name: 'anthropic', model }).ask('go');
    await advance(1_000);
    const run = await pending;
    expect(run.response).toBe('Back online.');
    expect(retries(run.events)).toEqual([expect.objectContaining({ httpStatus: 529, errorClass: 'AI_APICallError', delay: 1_000 })]);
    expect(fetch.bodies).toHaveLength(2);
  });

  it('@ai-sdk/openai-compatible: 503 with retry-after: 3 waits 3 s', async () => {
    const fetch = fixtureFetch([errorAnswer(compatibleUnavailable), chatText('Served.')]);
    const model = createOpenAICompatible({ name: 'gateway', baseURL: 'https://gateway.test/v1', apiKey: 'k', fetch }).chatModel('llama');
    const pending = defineAgent({ name: 'compatible', model }).ask('go');
    await advance(2_999);
    expect(fetch.bodies).toHaveLength(1);
    await advance(1);
    const run = await pending;
    expect(run.response).toBe('Served.');
    expect(retries(run.events)).toEqual([expect.objectContaining({ httpStatus: 503, delay: 3_000 })]);
  });

  it('@ai-sdk/openai (chat): 500 server_error is retried', async () => {
    const fetch = fixtureFetch([errorAnswer(openaiServerError), chatText('Fine now.')]);
    const model = createOpenAI({ baseURL: 'https://openai.test/v1', apiKey: 'k', fetch }).chat('gpt-4o');
    const pending = defineAgent({ name: 'openai', model }).ask('go');
    await advance(1_000);
    expect((await pending).response).toBe('Fine now.');
  });
});
