import { describe, expect, it } from 'vitest';
import { makeUsage } from '../agent/usage.ts';
import type { EventPayload, GhostlightEvent } from '../events/events.ts';
import { AgUiEncoder } from './ag-ui-encoder.ts';

const usage = makeUsage({ noCacheTokens: 2, textTokens: 1 });
const log = (...payloads: EventPayload[]): GhostlightEvent[] =>
  payloads.map((payload, sequence) => ({ ...payload, runId: 'run', sequence, time: 1000 + sequence }) as GhostlightEvent);
const encode = (events: GhostlightEvent[]) => {
  const encoder = new AgUiEncoder({ threadId: 'thread', runId: 'run' });
  return events.flatMap((event) => encoder.encode(event));
};
const types = (events: Array<{ type: string }>) => events.map((event) => event.type);

describe('AgUiEncoder (SPEC A12)', () => {
  it('passes the trace context on as CUSTOM ghostlight.trace_context, unwrapped', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const out = encode(log({ type: 'run-start', sessionId: 'thread', agent: 'a' }, { type: 'trace-context', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', traceparent, tracestate: 'k=v' }));
    expect(out[1]).toEqual({ type: 'CUSTOM', name: 'ghostlight.trace_context', value: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', traceparent, tracestate: 'k=v' }, timestamp: 1001 });
  });

  it('maps a plain text run (C.64)', () => {
    const out = encode(
      log(
        { type: 'run-start', sessionId: 'thread', agent: 'a' },
        { type: 'invocation-start', agent: 'a' },
        { type: 'model-start', turn: 1 },
        { type: 'message-start', turn: 1, messageId: 'm1' },
        { type: 'text-delta', turn: 1, messageId: 'm1', text: 'hello' },
        { type: 'message-stop', turn: 1, messageId: 'm1', text: 'hello', finishReason: 'stop' },
        { type: 'usage', turn: 1, usage, total: usage },
        { type: 'model-stop', turn: 1, finishReason: 'stop', usage },
        { type: 'invocation-stop', agent: 'a', usage },
        { type: 'run-stop', outcome: 'completed', response: 'hello', output: 'hello' },
      ),
    );
    expect(types(out)).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM', 'RUN_FINISHED']);
    const custom = out[4] as { name: string; value: { usage: { totalTokens: number } } };
    expect(custom.name).toBe('ghostlight.usage');
    expect(custom.value.usage.totalTokens).toBe(3);
    expect(out[5]).toMatchObject({ threadId: 'thread', runId: 'run', result: { response: 'hello' }, usage: [{ totalTokens: 3 }] });
    expect(out[1]).toMatchObject({ messageId: 'm1', role: 'assistant', timestamp: 1004 });
  });

  it('maps partial, cancelled and failed runs and closes open text first (C.65)', () => {
    const partial = encode(log({ type: 'text-delta', turn: 1, messageId: 'm', text: 'Par' }, { type: 'run-partial', outcome: 'partial', response: 'Par', error: { name: 'DeadlineExceededError', message: 'late' } }));
    expect(types(partial)).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM', 'RUN_FINISHED']);
    expect(partial[3]).toMatchObject({ name: 'ghostlight.run.partial', value: { response: 'Par', message: 'late' } });

    const cancelled = encode(log({ type: 'text-delta', turn: 1, messageId: 'm', text: 'x' }, { type: 'run-cancel', outcome: 'cancelled', response: '', error: { name: 'CancelledError', message: 'stopped' } }));
    expect(types(cancelled)).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM', 'RUN_FINISHED']);
    expect(cancelled[3]).toMatchObject({ name: 'ghostlight.run.canceled', value: { reason: 'stopped' } });
    expect(cancelled[4]).toMatchObject({ outcome: { type: 'cancelled' } });

    const failed = encode(log({ type: 'text-delta', turn: 1, messageId: 'm', text: 'x' }, { type: 'run-error', outcome: 'failed', response: 'Agent failed', error: { name: 'ProviderError', message: 'Agent failed' }, cleanupFailed: true }));
    expect(types(failed)).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_ERROR']);
    expect(failed[3]).toMatchObject({ message: 'Agent failed', code: 'ProviderError', metadata: { cleanupFailed: true } });
  });

  it('writes nothing after the terminal event', () => {
    const encoder = new AgUiEncoder({ threadId: 't', runId: 'r' });
    const [stop] = log({ type: 'run-stop', outcome: 'completed', response: 'x', output: 'x' });
    expect(encoder.encode(stop!)).toHaveLength(1);
    expect(encoder.encode(stop!)).toEqual([]);
    expect(encoder.fail('x')).toEqual([]);
  });

  it('keeps reasoning separate from visible text (C.66)', () => {
    const out = encode(
      log(
        { type: 'text-delta', turn: 1, messageId: 'm', text: 'Visible ' },
        { type: 'reasoning-delta', turn: 1, messageId: 'm', text: 'thinking' },
        { type: 'text-delta', turn: 1, messageId: 'm', text: 'answer' },
        { type: 'message-stop', turn: 1, messageId: 'm', text: 'Visible answer', finishReason: 'stop' },
        { type: 'run-stop', outcome: 'completed', response: 'Visible answer', output: 'Visible answer' },
      ),
    );
    expect(types(out)).toEqual([
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
      'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED',
    ]);
    const starts = out.filter((event) => event.type === 'TEXT_MESSAGE_START') as Array<{ messageId: string }>;
    expect(new Set(starts.map((event) => event.messageId)).size).toBe(2);
  });

  it('maps tool calls and results; a tool call outside text has no parent message', () => {
    const out = encode(
      log(
        { type: 'message-start', turn: 1, messageId: 'm' },
        { type: 'tool-call-start', turn: 1, toolCallId: 'c1', toolName: 'lookup' },
        { type: 'tool-call-delta', turn: 1, toolCallId: 'c1', delta: '{"q":1}' },
        { type: 'tool-call-stop', turn: 1, toolCallId: 'c1', toolName: 'lookup', input: { q: 1 } },
        { type: 'tool-stop', toolCallId: 'c1', toolName: 'lookup', caller: 'model', status: 'error', content: 'failed', value: undefined, durationMs: 1 },
        { type: 'tool-stop', toolCallId: 'c2', toolName: 'inner', caller: 'code', parentToolCallId: 'c1', status: 'success', content: 'ok', value: 'ok', durationMs: 1 },
      ),
    );
    expect(types(out)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'CUSTOM']);
    expect(out[0]).not.toHaveProperty('parentMessageId');
    expect(out[3]).toMatchObject({ toolCallId: 'c1', content: 'failed', role: 'tool', metadata: { status: 'error', toolName: 'lookup' } });
    expect(out[4]).toMatchObject({ name: 'ghostlight.tool_result', value: { caller: 'code', parentToolCallId: 'c1' } });
  });

  it('gives the tool call the open text message as parent', () => {
    const out = encode(log({ type: 'text-delta', turn: 1, messageId: 'm', text: 'Let me check' }, { type: 'tool-call-start', turn: 1, toolCallId: 'c1', toolName: 'lookup' }));
    expect(out[2]).toMatchObject({ type: 'TOOL_CALL_START', parentMessageId: 'm' });
  });

  it('reports code-mode programs and their calls as ghostlight custom events', () => {
    const out = encode(
      log(
        { type: 'program-start', programId: 'x1', source: 'return 1;' },
        { type: 'tool-start', toolCallId: 'c1', toolName: 'lookup', input: { id: 1 }, caller: 'code', parentToolCallId: 'x1' },
        { type: 'tool-stop', toolCallId: 'c1', toolName: 'lookup', caller: 'code', parentToolCallId: 'x1', status: 'success', content: '{}', value: {}, durationMs: 1 },
        { type: 'program-observe', programId: 'x1', via: 'exec', status: 'completed', output: 'hi', value: 1 },
      ),
    ) as Array<{ type: string; name: string; value: Record<string, unknown> }>;
    expect(out.map((event) => [event.type, event.name])).toEqual([
      ['CUSTOM', 'ghostlight.program.start'],
      ['CUSTOM', 'ghostlight.tool_start'],
      ['CUSTOM', 'ghostlight.tool_result'],
      ['CUSTOM', 'ghostlight.program.observe'],
    ]);
    expect(out[0]?.value).toEqual({ programId: 'x1', source: 'return 1;' });
    expect(out[1]?.value).toEqual({ toolCallId: 'c1', toolName: 'lookup', caller: 'code', parentToolCallId: 'x1', input: { id: 1 } });
    expect(out[3]?.value).toEqual({ programId: 'x1', via: 'exec', status: 'completed', output: 'hi', value: 1 });
  });
});
