import { APICallError } from '@ai-sdk/provider';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, Instrumentation, MemorySessionStore, OperationRecorder } from 'ghostlight';
import type { AgentDefinition, InstrumentationSubscriber, RecordedOperation } from 'ghostlight';
import { codeMode } from 'ghostlight/code-mode';
import { openTelemetry } from 'ghostlight/opentelemetry';
import { lookupTool } from '../support/code-tools';
import { scriptedModel } from '../support/scripted-model';
import type { ScriptedTurn } from '../support/scripted-model';

const weather = defineTool({
  name: 'weather',
  description: 'Get the weather for a city.',
  input: v.strictObject({ city: v.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny', apiKey: 'sk-test-abcdefghijklmnop' }),
});

const answerSchema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

const overloaded = () => new APICallError({ message: 'Overloaded', url: 'http://127.0.0.1/v1/chat', requestBodyValues: {}, statusCode: 503 });

/** A run with a retried provider call, a model tool call, a code-mode program calling a tool, and a structured result. */
function analystTurns(retry: boolean): ScriptedTurn[] {
  return [
    ...(retry ? [{ error: overloaded() }] : []),
    {
      toolCalls: [
        { id: 'w1', name: 'weather', input: { city: 'Paris' } },
        { id: 'x1', name: 'exec', input: { source: 'const item = await tools.lookup({ id: 7 });\nreturn item.name;' } },
      ],
    },
    { text: '{"answer":"sunny"}' },
  ];
}

/** The analyst agent; `retry` makes its first provider call fail once with a 503 (retried after 1 s). */
function analyst(instrumentation: Instrumentation, extra: Partial<AgentDefinition> = {}, retry = false) {
  return defineAgent({
    name: 'analyst',
    model: scriptedModel(analystTurns(retry)),
    tools: [weather, lookupTool],
    capabilities: [codeMode({ except: ['weather'] })],
    result: { schema: answerSchema },
    modelCapabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true },
    instrumentation,
    ...extra,
  });
}

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { exporter, provider, subscriber: openTelemetry({ tracerProvider: provider }) };
}

/** Each span as `name <- parent name`, for comparing trees. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  return spans
    .map((span) => {
      const parent = span.parentSpanContext?.spanId === undefined ? undefined : byId.get(span.parentSpanContext.spanId);
      return `${span.name} <- ${parent?.name ?? '(root)'}`;
    })
    .sort();
}

function recordedTree(operations: readonly RecordedOperation[]): string[] {
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const label = (operation: RecordedOperation) => `${operation.name}${operation.attributes.toolName ? `:${String(operation.attributes.toolName)}` : ''}`;
  return operations.map((operation) => `${label(operation)} <- ${operation.parentId ? label(byId.get(operation.parentId)!) : '(root)'}`).sort();
}

describe('instrumentation of a run (tools, code mode, a structured result, a retry)', () => {
  it('reports the operation tree and its point events on the bus', async () => {
    const recorder = new OperationRecorder();
    const run = await analyst(new Instrumentation({ subscribers: [recorder] }), {}, true).ask('Weather in Paris, and item 7?');
    expect(run.outcome).toBe('completed');
    const operations = recorder.operations();
    expect(recordedTree(operations)).toEqual(
      [
        'run <- (root)',
        'agent <- run',
        'agent_turn <- agent',
        'agent_turn <- agent',
        'model <- agent_turn',
        'model <- agent_turn',
        'tool:weather <- agent_turn',
        'tool:exec <- agent_turn',
        'code_program <- agent',
        'tool:lookup <- code_program',
      ].sort(),
    );
    expect(operations.every((operation) => operation.endTime !== undefined && operation.endTime >= operation.startTime)).toBe(true);
    const [firstModel, secondModel] = operations.filter((operation) => operation.name === 'model');
    expect(firstModel!.events.map((event) => event.name)).toEqual(['model_retry']);
    expect(firstModel!.events[0]!.attributes).toMatchObject({ attempt: 1, httpStatus: 503, errorType: 'AI_APICallError' });
    expect(firstModel!.attributes).toMatchObject({ model: 'mock-model-id', provider: 'mock-provider', turn: 1, finishReason: 'tool-calls', inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, reasoningTokens: 1 });
    expect(secondModel!.attributes).toMatchObject({ turn: 2, finishReason: 'stop' });
    const lookup = operations.find((operation) => operation.attributes.toolName === 'lookup')!;
    expect(lookup.attributes).toMatchObject({ caller: 'code', parentToolCallId: 'x1', status: 'success' });
    expect(operations.find((operation) => operation.attributes.toolName === 'weather')!.attributes).toMatchObject({ caller: 'model', toolCallId: 'w1' });
    expect(operations.find((operation) => operation.attributes.toolName === 'exec')!.attributes).toMatchObject({ control: true });
    const turns = operations.filter((operation) => operation.name === 'agent_turn');
    expect(turns[1]!.events).toEqual([expect.objectContaining({ name: 'structured_result', attributes: { decision: 'complete', terminal: true } })]);
    expect(operations.find((operation) => operation.name === 'run')!.attributes).toMatchObject({ agent: 'analyst', runId: run.runId, outcome: 'completed', inputTokens: 20 });
  });

  it('becomes OpenTelemetry spans on the GenAI semantic conventions', async () => {
    const { exporter, provider, subscriber } = tracing();
    const instrumentation = new Instrumentation({ subscribers: [subscriber] });
    const run = await analyst(instrumentation, {}, true).ask('Weather in Paris, and item 7?', { sessionId: 'conversation-1' });
    await instrumentation.flush();
    expect(run.outcome).toBe('completed');
    const spans = exporter.getFinishedSpans();
    expect(tree(spans)).toEqual(
      [
        'invoke_agent analyst <- (root)',
        'agent_turn 1 <- invoke_agent analyst',
        'agent_turn 2 <- invoke_agent analyst',
        'chat mock-model-id <- agent_turn 1',
        'chat mock-model-id <- agent_turn 2',
        'execute_tool weather <- agent_turn 1',
        'execute_tool exec <- agent_turn 1',
        'code_program <- invoke_agent analyst',
        'execute_tool lookup <- code_program',
      ].sort(),
    );
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(byName('invoke_agent analyst').attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'analyst',
      'gen_ai.conversation.id': 'conversation-1',
      'gen_ai.usage.input_tokens': 20,
      'gen_ai.usage.output_tokens': 10,
    });
    const chat = byName('chat mock-model-id');
    expect(chat.kind).toBe(2); // SpanKind.CLIENT
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'mock-model-id',
      'gen_ai.provider.name': 'mock-provider',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.response.finish_reasons': ['tool-calls'],
    });
    expect(chat.events.map((event) => event.name)).toEqual(['ghostlight.model_retry']);
    expect(chat.events[0]!.attributes).toMatchObject({ 'ghostlight.attempt': 1, 'http.response.status_code': 503, 'error.type': 'AI_APICallError' });
    expect(byName('execute_tool lookup').attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'x1-code-1-1',
      'gen_ai.tool.type': 'function',
      'ghostlight.tool.caller': 'code',
    });
    expect(byName('execute_tool weather').attributes).toMatchObject({ 'gen_ai.tool.call.id': 'w1', 'ghostlight.tool.caller': 'model' });
    expect(byName('agent_turn 2').events.map((event) => event.name)).toEqual(['ghostlight.structured_result']);
    for (const span of spans) {
      for (const value of Object.values(span.attributes)) if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(1_024);
    }
    await provider.shutdown();
  });

  it('carries no content unless the agent captures it, and scrubs what it captures', async () => {
    const plain = tracing();
    await analyst(new Instrumentation({ subscribers: [plain.subscriber] })).ask('Secret question: Bearer abcdefghijklmnopqrstuvwxyz');
    const keys = plain.exporter.getFinishedSpans().flatMap((span) => Object.keys(span.attributes));
    expect(keys.filter((key) => /messages|arguments|result|source/.test(key))).toEqual([]);
    expect(JSON.stringify(plain.exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain('Secret question');

    const captured = tracing();
    const seen: string[] = [];
    const agent = analyst(new Instrumentation({ subscribers: [captured.subscriber] }), {
      captureContent: {
        scrubber: (value, { kind }) => {
          seen.push(kind);
          return typeof value === 'string' ? value.replace('Paris', '[city]') : value;
        },
      },
    });
    await agent.ask('Secret question: Bearer abcdefghijklmnopqrstuvwxyz');
    const spans = captured.exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'invoke_agent analyst')!;
    expect(JSON.parse(String(run.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Secret question: [REDACTED]' }] }]);
    const tool = spans.find((span) => span.name === 'execute_tool weather')!;
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({ city: 'Paris' });
    expect(String(tool.attributes['gen_ai.tool.call.result'])).toContain('[city]');
    expect(String(tool.attributes['gen_ai.tool.call.result'])).not.toContain('sk-test-abcdefghijklmnop');
    const chats = spans.filter((span) => span.name === 'chat mock-model-id');
    const secondChat = chats.find((span) => span.attributes['ghostlight.turn'] === 2)!;
    const input = JSON.parse(String(secondChat.attributes['gen_ai.input.messages'])) as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    expect(input.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(input[0]!.parts).toEqual([{ type: 'text', content: 'Secret question: [REDACTED]' }]);
    expect(input[1]!.parts).toEqual(expect.arrayContaining([{ type: 'tool_call', id: 'w1', name: 'weather', arguments: { city: 'Paris' } }]));
    expect(input[2]!.parts[0]).toMatchObject({ type: 'tool_call_response', id: 'w1' });
    const output = JSON.parse(String(chats.find((span) => span.attributes['ghostlight.turn'] === 1)!.attributes['gen_ai.output.messages'])) as Array<{ role: string; parts: Array<{ type: string }> }>;
    expect(output).toEqual([{ role: 'assistant', parts: [expect.objectContaining({ type: 'tool_call', name: 'weather' }), expect.objectContaining({ type: 'tool_call', name: 'exec' })] }]);
    expect(String(spans.find((span) => span.name === 'code_program')!.attributes['ghostlight.code.source'])).toContain('tools.lookup');
    expect(seen).toEqual(expect.arrayContaining(['input', 'output']));
  });

  it('isolates a throwing subscriber: the run completes and the other subscribers still see everything', async () => {
    const failures: string[] = [];
    const broken: InstrumentationSubscriber = {
      start: () => {
        throw new Error('start failed');
      },
      finish: () => {
        throw new Error('finish failed');
      },
      emit: () => {
        throw new Error('emit failed');
      },
      traceContext: () => {
        throw new Error('trace context failed');
      },
      flush: async () => {
        throw new Error('flush failed');
      },
    };
    const recorder = new OperationRecorder();
    const instrumentation = new Instrumentation({ subscribers: [broken, recorder], onError: (_error, { method }) => failures.push(method) });
    const run = await analyst(instrumentation).ask('Weather?');
    await instrumentation.flush();
    expect(run.outcome).toBe('completed');
    expect(run.output).toEqual({ answer: 'sunny' });
    expect(recorder.operations()).toHaveLength(10);
    expect(failures.sort()).toEqual(['emit', 'finish', 'flush', 'start', 'traceContext']);
  });

  it('does no instrumentation work for a bus without subscribers, and writes no trace-context event', async () => {
    const bus = new Instrumentation();
    const run = await analyst(bus).ask('Weather?');
    expect(run.outcome).toBe('completed');
    expect(run.events.some((event) => event.type === 'trace-context')).toBe(false);
    const recorder = new OperationRecorder();
    const remove = bus.subscribe(recorder);
    remove();
    await analyst(bus).ask('Weather?');
    expect(recorder.operations()).toEqual([]);
  });

  it('writes the trace context as a run event after run-start when a tracer gives one', async () => {
    const { subscriber, exporter } = tracing();
    const run = await analyst(new Instrumentation({ subscribers: [subscriber] })).ask('Weather?');
    const types = run.events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['run-start', 'trace-context']);
    const event = run.events[1] as Extract<(typeof run.events)[number], { type: 'trace-context' }>;
    const root = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent analyst')!;
    expect(event.traceId).toBe(root.spanContext().traceId);
    expect(event.traceparent).toBe(`00-${root.spanContext().traceId}-${root.spanContext().spanId}-01`);
  });

  it('continues a remote parent given as the traceContext option', async () => {
    const { subscriber, exporter } = tracing();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await analyst(new Instrumentation({ subscribers: [subscriber] })).ask('Weather?', { traceContext: { traceparent, tracestate: 'vendor=1' } });
    const root = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent analyst')!;
    expect(root.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(root.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(root.spanContext().traceState?.get('vendor')).toBe('1');
  });

  it('records failures: a failed run ends its spans with an error status and an exception event', async () => {
    const { subscriber, exporter } = tracing();
    const agent = defineAgent({
      name: 'failing',
      model: scriptedModel([{ error: new APICallError({ message: 'Bad request', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode: 400 }) }]),
      instrumentation: new Instrumentation({ subscribers: [subscriber] }),
    });
    const run = await agent.ask('Hi');
    expect(run.outcome).toBe('failed');
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((span) => span.name.startsWith('chat'))!;
    const root = spans.find((span) => span.name === 'invoke_agent failing')!;
    for (const span of [chat, root]) {
      expect(span.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(span.attributes['error.type']).toBe('ProviderError');
      expect(span.events.find((event) => event.name === 'exception')?.attributes?.['exception.type']).toBe('ProviderError');
      expect(span.events.find((event) => event.name === 'exception')?.attributes?.['exception.message']).toBeUndefined();
    }
  });
});

describe('other operations and events', () => {
  it('reports session store loads and saves, and tool-loop warnings on the repeated call', async () => {
    const recorder = new OperationRecorder();
    const turns: ScriptedTurn[] = [1, 2, 3].map((index) => ({ toolCalls: [{ id: `r${index}`, name: 'weather', input: { city: 'Rome' } }] }));
    const agent = defineAgent({
      name: 'looper',
      model: scriptedModel([...turns, { text: 'Sunny.' }]),
      tools: [weather],
      detectToolLoops: true,
      instrumentation: new Instrumentation({ subscribers: [recorder] }),
    });
    const run = await agent.ask('Weather in Rome?', { sessions: new MemorySessionStore(), sessionId: 'session-1', actorId: 'ada' });
    expect(run.outcome).toBe('completed');
    const operations = recorder.operations();
    const agentOperation = operations.find((operation) => operation.name === 'agent')!;
    const stores = operations.filter((operation) => operation.name === 'session_store');
    expect(stores.map((operation) => operation.attributes.action)).toEqual(['load', 'save', 'save', 'save', 'save']);
    expect(stores.every((operation) => operation.parentId === agentOperation.id && operation.error === undefined)).toBe(true);
    const warned = operations.find((operation) => operation.attributes.toolCallId === 'r3')!;
    expect(warned.events).toEqual([expect.objectContaining({ name: 'tool_loop', attributes: { toolName: 'weather', repeats: 3, action: 'warn' } })]);
    expect(operations.find((operation) => operation.attributes.toolCallId === 'r2')!.events).toEqual([]);
  });
});

describe('nested runs', () => {
  it('a run given a parentOperation reports inside it: a subagent called from a tool is a child of that tool call', async () => {
    const { exporter, subscriber } = tracing();
    const helper = defineAgent({ name: 'helper', model: scriptedModel([{ text: 'Helped.' }]) });
    const delegate = defineTool({
      name: 'delegate',
      description: 'Ask the helper agent.',
      input: v.strictObject({ question: v.string() }),
      execute: async ({ question }, binding) => (await helper.ask(question, { parentOperation: binding.operation })).response,
    });
    const lead = defineAgent({
      name: 'lead',
      model: scriptedModel([{ toolCalls: [{ id: 'd1', name: 'delegate', input: { question: 'Help?' } }] }, { text: 'Done.' }]),
      tools: [delegate],
      instrumentation: new Instrumentation({ subscribers: [subscriber] }),
    });
    expect((await lead.ask('Go')).outcome).toBe('completed');
    expect(tree(exporter.getFinishedSpans())).toEqual(
      expect.arrayContaining(['invoke_agent helper <- execute_tool delegate', 'chat mock-model-id <- agent_turn 1', 'agent_turn 1 <- invoke_agent helper']),
    );
    expect(new Set(exporter.getFinishedSpans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});

describe('operation handles', () => {
  it('nest last in, first out: finishing a parent first finishes its open children', () => {
    const recorder = new OperationRecorder();
    const order: string[] = [];
    const bus = new Instrumentation({ subscribers: [recorder, { finish: (name, attributes) => order.push(`${name}${attributes.abandoned ? ' (abandoned)' : ''}`) }] });
    const root = bus.start('run');
    const child = root.start('agent');
    const first = child.start('tool', { toolName: 'a' });
    child.start('tool', { toolName: 'b' });
    first.finish();
    root.finish();
    child.finish();
    expect(order).toEqual(['tool', 'tool (abandoned)', 'agent (abandoned)', 'run']);
    expect(recorder.operations().every((operation) => operation.endTime !== undefined)).toBe(true);
  });
});
