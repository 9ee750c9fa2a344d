import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import * as v from 'valibot';
import { describe, expect, inject, it } from 'vitest';
import { defineAgent, defineTool, Instrumentation } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import { mcpToolset } from 'ghostlight/mcp';
import { openTelemetry } from 'ghostlight/opentelemetry';
import { scriptedModel } from '../support/scripted-model';
import type { ScriptedTurn } from '../support/scripted-model';
import { parseSse } from '../support/sse';

const origin = inject('mcpOrigin');

const weather = defineTool({
  name: 'weather',
  description: 'Get the weather for a city.',
  input: v.strictObject({ city: v.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny' }),
});

const incoming = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
const traceparent = `00-${incoming.traceId}-${incoming.spanId}-01`;

function tracedApp(turns: ScriptedTurn[], tools: Parameters<typeof defineAgent>[0]['tools'] = [weather], continueTraces?: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const instrumentation = new Instrumentation({ subscribers: [openTelemetry({ tracerProvider: provider })] });
  const agent = defineAgent({ name: 'helper', model: scriptedModel(turns), tools });
  const app = createAgentApp({ agents: [agent], auth: () => ({ actorId: 'user-1' }), instrumentation, ...(continueTraces === undefined ? {} : { continueTraces }) });
  return { app, exporter, instrumentation };
}

const agUiBody = (text: string) =>
  JSON.stringify({ threadId: 'thread-1', runId: 'client-run-1', messages: [{ id: 'm1', role: 'user', content: text }], tools: [], context: [], state: {}, forwardedProps: {} });

describe('traces across the HTTP hop', () => {
  it('createAgentApp continues the request traceparent and tells AG-UI clients the trace context', async () => {
    const { app, exporter } = tracedApp([{ toolCalls: [{ id: 'w1', name: 'weather', input: { city: 'Oslo' } }] }, { text: 'Sunny.' }]);
    const response = await app.request('/agents/helper/ag-ui', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', traceparent, tracestate: 'vendor=abc' },
      body: agUiBody('Weather in Oslo?'),
    });
    expect(response.status).toBe(200);
    const events = parseSse(await response.text()).map((frame) => frame.data as { type: string; name?: string; value?: Record<string, string> });
    const context = events.find((event) => event.type === 'CUSTOM' && event.name === 'ghostlight.trace_context');
    expect(context?.value?.traceId).toBe(incoming.traceId);
    expect(context?.value?.tracestate).toBe('vendor=abc');
    expect(events.findIndex((event) => event === context)).toBeLessThan(events.findIndex((event) => event.type === 'TOOL_CALL_START'));

    const spans = exporter.getFinishedSpans();
    const root = spans.find((span) => span.name === 'invoke_agent helper')!;
    expect(root.spanContext().traceId).toBe(incoming.traceId);
    expect(root.parentSpanContext?.spanId).toBe(incoming.spanId);
    expect(context?.value?.traceparent).toBe(`00-${incoming.traceId}-${root.spanContext().spanId}-01`);
    expect(spans.every((span) => span.spanContext().traceId === incoming.traceId)).toBe(true);
    expect(spans.map((span) => span.name)).toContain('execute_tool weather');
  });

  it('starts a new trace for a request without (or with an invalid) traceparent, and ignores it when told to', async () => {
    for (const headers of [{}, { traceparent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' }, { traceparent: 'garbage' }]) {
      const { app, exporter } = tracedApp([{ text: 'Hi.' }]);
      const response = await app.request('/agents/helper/runs', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ input: 'Hi' }) });
      expect(response.status).toBe(200);
      const root = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent helper')!;
      expect(root.parentSpanContext).toBeUndefined();
      expect(root.spanContext().traceId).not.toBe('00000000000000000000000000000000');
    }
    const { app, exporter } = tracedApp([{ text: 'Hi.' }], [weather], false);
    await app.request('/agents/helper/runs', { method: 'POST', headers: { 'content-type': 'application/json', traceparent }, body: JSON.stringify({ input: 'Hi' }) });
    expect(exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent helper')!.spanContext().traceId).not.toBe(incoming.traceId);
  });

  it('an agent calling an MCP server over HTTP sends the traceparent of its discovery and of each tool call', async () => {
    const everything = mcpToolset({ name: 'everything', connection: { url: `${origin}/mcp`, allowInsecureHttp: true } });
    const { app, exporter } = tracedApp([{ toolCalls: [{ id: 'e1', name: 'echo', input: { message: 'hello' } }] }, { text: 'Echoed.' }], [everything]);
    const response = await app.request('/agents/helper/runs', { method: 'POST', headers: { 'content-type': 'application/json', traceparent }, body: JSON.stringify({ input: 'Echo hello' }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const discovery = spans.find((span) => span.name === 'mcp_discovery everything')!;
    const echo = spans.find((span) => span.name === 'execute_tool echo')!;
    expect(discovery.attributes['ghostlight.tool_count']).toBeGreaterThan(3);
    const seen = (await (await fetch(`${origin}/traces/${incoming.traceId}`)).json()) as Array<{ traceparent: string; method: string }>;
    const parents = new Set(seen.filter((entry) => entry.method === 'POST').map((entry) => entry.traceparent.split('-')[2]));
    expect(parents).toEqual(new Set([discovery.spanContext().spanId, echo.spanContext().spanId]));
    expect(seen.every((entry) => entry.traceparent.startsWith(`00-${incoming.traceId}-`))).toBe(true);
  });
});
