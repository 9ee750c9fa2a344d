import { describe, expect, it } from 'vitest';
import { CancelledError, ProviderError } from '../error/control-errors.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import type { HttpSettings } from './http-exchange.ts';
import { HttpMcpTransport } from './http-transport.ts';
import { McpConnectionError } from './mcp-connection-error.ts';
import { sseEvents } from './sse-events.ts';

const request = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: {} };

function settings(fetch: (request: Request) => Response | Promise<Response>, overrides: Partial<HttpSettings> = {}): HttpSettings {
  return {
    url: new URL('https://mcp.example/mcp'),
    headers: {},
    timeoutMs: 60_000,
    maxResponseBytes: 1024,
    sign: undefined,
    fetch: (async (input: Request) => fetch(input)) as typeof globalThis.fetch,
    ...overrides,
  };
}

const stream = (text: string, chunkSize = 7) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(text);
      for (let offset = 0; offset < bytes.length; offset += chunkSize) controller.enqueue(bytes.subarray(offset, offset + chunkSize));
      controller.close();
    },
  });

describe('HttpMcpTransport', () => {
  it('sends the MCP headers, keeps the session id, and reads the matching response from an event stream', async () => {
    const seen: Request[] = [];
    const transport = new HttpMcpTransport(
      settings((incoming) => {
        seen.push(incoming);
        const body = [
          ': keep-alive',
          'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}',
          'data: {"jsonrpc":"2.0","id":1,\ndata: "result":{"tools":[]}}',
        ].join('\r\n\r\n') + '\r\n\r\n';
        return new Response(stream(body), { headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-7' } });
      }, { headers: { authorization: 'Bearer t' } }),
    );
    expect(await transport.request(request, {})).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(transport.sessionId).toBe('session-7');
    await transport.request({ ...request, id: 2 }, {}).catch(() => undefined);
    expect(seen[0]!.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(seen[0]!.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(seen[0]!.headers.has('mcp-session-id')).toBe(false);
    expect(seen[1]!.headers.get('mcp-session-id')).toBe('session-7');
  });

  it('rejects invalid session ids, HTTP errors, invalid JSON, oversized bodies and streams without a response', async () => {
    const cases: Array<[() => Response, string]> = [
      [() => new Response('{}', { headers: { 'mcp-session-id': 'bad id' } }), 'MCP server returned an invalid session ID'],
      [() => new Response('nope', { status: 500 }), 'MCP request failed with HTTP 500'],
      [() => new Response('{not json', { headers: { 'content-type': 'application/json' } }), 'MCP returned invalid JSON'],
      [() => new Response('x'.repeat(2048), { headers: { 'content-type': 'application/json' } }), 'MCP response exceeded 1024 bytes'],
      [() => new Response(stream(`data: ${'x'.repeat(2048)}\n\n`), { headers: { 'content-type': 'text/event-stream' } }), 'MCP response exceeded 1024 bytes'],
      [() => new Response(stream('data: {"jsonrpc":"2.0","id":9,"result":{}}\n\n'), { headers: { 'content-type': 'text/event-stream' } }), 'MCP event stream contained no response'],
    ];
    for (const [respond, message] of cases) {
      const error = await new HttpMcpTransport(settings(respond)).request(request, {}).catch((caught: unknown) => caught);
      expect(ProtocolError.isInstance(error), message).toBe(true);
      expect((error as Error).message).toContain(message);
    }
  });

  it('reports network failures and timeouts as McpConnectionError (a ProviderError naming the server), and cancellation as the run error', async () => {
    const down = new HttpMcpTransport(settings(() => Promise.reject(new TypeError('fetch failed'))));
    const error = await down.request(request, {}).catch((caught: unknown) => caught);
    expect(McpConnectionError.isInstance(error) && ProviderError.isInstance(error)).toBe(true);
    expect((error as Error).name).toBe('McpConnectionError');
    expect((error as Error).message).toMatch(/^MCP transport failed: the MCP server at https?:\/\/[^/]+ could not be reached \(TypeError\)$/);

    // A server that never answers and a fetch that ignores its signal: the transport still stops waiting.
    const hanging = () => new Promise<Response>(() => undefined);
    await expect(new HttpMcpTransport(settings(hanging, { timeoutMs: 20 })).request(request, {})).rejects.toThrow(/did not answer within 20 ms \(TimeoutError\)/);

    const controller = new AbortController();
    const pending = new HttpMcpTransport(settings(hanging)).request(request, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(CancelledError);
  });

  it('lets the signer replace the request, and lets its own errors through unchanged', async () => {
    const seen: Request[] = [];
    const signed = new HttpMcpTransport(
      settings(
        (incoming) => {
          seen.push(incoming);
          return Response.json({ jsonrpc: '2.0', id: 1, result: {} });
        },
        { sign: (outgoing) => new Request(outgoing, { headers: { ...Object.fromEntries(outgoing.headers), 'x-signature': 'sig' } }) },
      ),
    );
    await signed.request(request, {});
    expect(seen[0]!.headers.get('x-signature')).toBe('sig');
    const broken = new RangeError('no key');
    const failing = new HttpMcpTransport(settings(() => Response.json({}), { sign: () => Promise.reject(broken) }));
    await expect(failing.request(request, {})).rejects.toBe(broken);
  });

  it('ends the session with DELETE on close, once', async () => {
    const methods: string[] = [];
    const transport = new HttpMcpTransport(
      settings((incoming) => {
        methods.push(incoming.method);
        return Response.json({ jsonrpc: '2.0', id: 1, result: {} }, { headers: { 'mcp-session-id': 's1' } });
      }),
    );
    await transport.request(request, {});
    await transport.close();
    await transport.close();
    expect(methods).toEqual(['POST', 'DELETE']);
  });
});

describe('sseEvents', () => {
  it('parses events split across chunks, multi-line data, comments and CRLF', async () => {
    const events = [];
    for await (const event of sseEvents(stream('event: endpoint\r\ndata: /messages?x=1\r\n\r\n: ping\n\nid: 4\ndata: a\ndata: b\n\ndata: tail', 3), 1 << 20)) {
      events.push(event);
    }
    expect(events).toEqual([
      { event: 'endpoint', data: '/messages?x=1', id: undefined },
      { event: 'message', data: 'a\nb', id: '4' },
      { event: 'message', data: 'tail', id: '4' },
    ]);
  });
});
