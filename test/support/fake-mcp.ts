/** What a fake MCP server answers; each handler gets the request's params and returns a result (or throws). */
export interface FakeMcpServer {
  initialize?: (params: Record<string, unknown>) => unknown;
  tools?: unknown[] | ((params: Record<string, unknown>) => unknown);
  call?: (params: { name: string; arguments: Record<string, unknown> }) => unknown;
  /** Replace the whole response envelope of a method (malformed responses). */
  envelope?: (method: string, id: unknown) => unknown;
  /** Answer with server-sent events instead of JSON. */
  sse?: boolean;
}

/** A recorded request. */
export interface FakeMcpRequest {
  method: string;
  headers: Headers;
  message: { id?: number; method: string; params?: Record<string, unknown> } | undefined;
}

/**
 * A `fetch` that plays an MCP server in memory (Streamable HTTP, JSON or SSE
 * responses), for tests of protocol edge cases that a real server never
 * produces. Runs in every runtime: no sockets.
 */
export function fakeMcpFetch(server: FakeMcpServer = {}): typeof fetch & { requests: FakeMcpRequest[] } {
  const requests: FakeMcpRequest[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = request.method === 'POST' ? await request.text() : '';
    const message = text ? (JSON.parse(text) as FakeMcpRequest['message']) : undefined;
    requests.push({ method: request.method, headers: request.headers, message });
    if (request.method === 'DELETE') return new Response(null, { status: 200 });
    if (!message || message.id === undefined) return new Response(null, { status: 202 });
    const custom = server.envelope?.(message.method, message.id);
    if (custom !== undefined) return json(custom, server.sse);
    try {
      const result = answer(server, message.method, message.params ?? {});
      return json({ jsonrpc: '2.0', id: message.id, result }, server.sse, message.method === 'initialize');
    } catch (error) {
      return json({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: (error as Error).message } }, server.sse);
    }
  };
  return Object.assign(fake as typeof fetch, { requests });
}

/** A tool definition with sensible defaults. */
export function fakeTool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `The ${name} tool`, inputSchema: { type: 'object' }, ...extra };
}

function answer(server: FakeMcpServer, method: string, params: Record<string, unknown>): unknown {
  switch (method) {
    case 'initialize':
      return server.initialize?.(params) ?? {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'fake', version: '1.0.0' },
      };
    case 'tools/list':
      return typeof server.tools === 'function' ? server.tools(params) : { tools: server.tools ?? [fakeTool('search')] };
    case 'tools/call':
      return server.call?.(params as { name: string; arguments: Record<string, unknown> }) ?? { content: [{ type: 'text', text: 'found' }] };
    default:
      throw new Error(`Method not found: ${method}`);
  }
}

function json(body: unknown, sse: boolean | undefined, withSession = false): Response {
  const headers: Record<string, string> = { 'content-type': sse ? 'text/event-stream' : 'application/json' };
  if (withSession) headers['mcp-session-id'] = 'fake-session-1';
  const text = sse ? `event: message\ndata: ${JSON.stringify(body)}\n\n` : JSON.stringify(body);
  return new Response(text, { status: 200, headers });
}
