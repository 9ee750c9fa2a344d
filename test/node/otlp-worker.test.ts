import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { projectRoot } from '../support/realworld';
import { startWranglerDev } from '../support/wrangler-dev';
import type { WranglerDev } from '../support/wrangler-dev';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpRequest {
  resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
}

/** A stand-in OTLP/HTTP collector on 127.0.0.1: keeps every decoded JSON export request. */
async function startCollector(port: number) {
  const received: Array<{ contentType: string | undefined; body: OtlpRequest }> = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') received.push({ contentType: request.headers['content-type'], body: JSON.parse(text) as OtlpRequest });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const value = (attribute: OtlpValue | undefined): unknown =>
  attribute?.stringValue ?? (attribute?.intValue !== undefined ? Number(attribute.intValue) : undefined) ?? attribute?.doubleValue ?? attribute?.boolValue ?? attribute?.arrayValue?.values.map(value);
const attributesOf = (span: OtlpSpan) => Object.fromEntries(span.attributes.map((attribute) => [attribute.key, value(attribute.value)]));

describe('a Worker exporting OTLP/HTTP JSON under wrangler dev', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'ghostlight-otlp-'));
  let dev: WranglerDev | undefined;
  let collector: Awaited<ReturnType<typeof startCollector>> | undefined;
  beforeAll(async () => {
    const collectorPort = await freePort();
    collector = await startCollector(collectorPort);
    dev = await startWranglerDev({
      port: await freePort(),
      inspectorPort: await freePort(),
      persistTo,
      config: join(projectRoot, 'test/node/fixtures/otlp-worker/wrangler.toml'),
      vars: { OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}` },
    });
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
    await collector?.close();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it('sends the run as one trace after the response, continuing the request traceparent', async () => {
    const traceId = '5b8efff798038103d269b633813fc60c';
    const response = await fetch(`${dev!.origin}/agents/forecaster/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-eee19b7ec3c1b174-01` },
      body: JSON.stringify({ input: 'Weather in Oslo?' }),
    });
    expect(((await response.json()) as { outcome: string }).outcome).toBe('completed');
    const deadline = Date.now() + 20_000;
    const spans = () => collector!.received.flatMap((request) => request.body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
    while (spans().filter((span) => span.traceId === traceId).length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(collector!.received[0]?.contentType).toContain('application/json');
    const trace = spans().filter((span) => span.traceId === traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const shape = trace.map((span) => `${span.name} <- ${span.parentSpanId ? (byId.get(span.parentSpanId)?.name ?? span.parentSpanId) : '(root)'}`).sort();
    expect(shape).toEqual(
      [
        'invoke_agent forecaster <- eee19b7ec3c1b174',
        'agent_turn 1 <- invoke_agent forecaster',
        'agent_turn 2 <- invoke_agent forecaster',
        'chat mock-model-id <- agent_turn 1',
        'chat mock-model-id <- agent_turn 2',
        'execute_tool weather <- agent_turn 1',
      ].sort(),
    );
    const chat = trace.find((span) => span.name === 'chat mock-model-id')!;
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT in OTLP
    expect(attributesOf(chat)).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'mock-model-id', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 });
    expect(attributesOf(trace.find((span) => span.name === 'execute_tool weather')!)).toMatchObject({ 'gen_ai.tool.name': 'weather', 'gen_ai.tool.call.id': 'call-1' });
    expect(collector!.received[0]!.body.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe('ghostlight');
  });
});
