import { describe, expect, it } from 'vitest';
import { CancelledError } from '../error/control-errors.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { ToolError } from '../tool/tool-error.ts';
import { fakeTool } from '../../test/support/fake-mcp.ts';
import { McpClient } from './mcp-client.ts';
import type { JsonRpcNotification, JsonRpcRequest } from './mcp-protocol.ts';
import type { McpTransport, McpTransportOptions } from './mcp-transport.ts';

type Handler = (message: JsonRpcRequest) => unknown;

/** A transport double answering in memory; `handlers` override one method's whole response. */
function transport(handlers: Record<string, Handler> = {}, tools: unknown[] = [fakeTool('search')]) {
  const sent: Array<JsonRpcRequest | JsonRpcNotification> = [];
  const double: McpTransport & { sent: typeof sent } = {
    version: 'mcp-transport-v1',
    sent,
    async request(message: JsonRpcRequest, _options: McpTransportOptions) {
      sent.push(message);
      const handler = handlers[message.method];
      if (handler) return handler(message);
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'test', version: '1.0' } }
          : message.method === 'tools/list'
            ? { tools }
            : { content: [{ type: 'text', text: 'found' }] };
      return { jsonrpc: '2.0', id: message.id, result };
    },
    async notify(message) {
      sent.push(message);
    },
    async close() {},
  };
  return double;
}

const ok = (message: JsonRpcRequest, result: unknown) => ({ jsonrpc: '2.0', id: message.id, result });

describe('McpClient', () => {
  it('initializes, lists and calls in protocol order, sending the server its own tool name', async () => {
    const double = transport({}, [fakeTool('docs.search')]);
    const client = new McpClient(double);
    const [tool] = await client.tools();
    expect(tool?.name).toBe('docs_search');
    await client.callTool('docs_search', { q: 1 });
    expect(double.sent.map((message) => message.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(double.sent.at(-1)).toMatchObject({ params: { name: 'docs.search', arguments: { q: 1 } } });
  });

  it('initializes once across concurrent callers', async () => {
    const double = transport();
    const client = new McpClient(double);
    await Promise.all([client.tools(), client.tools(), client.callTool('search', {})]);
    expect(double.sent.filter((message) => message.method === 'initialize')).toHaveLength(1);
  });

  it('enforces cancellation even when the transport does not', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const double = transport();
    await expect(new McpClient(double).tools({ binding: { signal: aborted.signal } as never })).rejects.toThrow(CancelledError);
    expect(double.sent).toEqual([]);

    const later = new AbortController();
    const racing = transport({
      initialize: (message) => {
        later.abort();
        return ok(message, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 't', version: '1' } });
      },
    });
    await expect(new McpClient(racing).initialize({ signal: later.signal })).rejects.toThrow(CancelledError);
  });

  it.each([
    ['no jsonrpc', (message: JsonRpcRequest) => ({ id: message.id, result: { tools: [] } })],
    ['no id', () => ({ jsonrpc: '2.0', result: { tools: [] } })],
    ['another id', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id + 1, result: { tools: [] } })],
    ['neither result nor error', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id })],
    ['both result and error', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id, result: { tools: [] }, error: { code: 1, message: 'x' } })],
    ['an error without a code', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id, error: { message: 'failed' } })],
    ['an error with a non-string message', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 123 } })],
    ['tools that are not an array', (message: JsonRpcRequest) => ok(message, { tools: 'invalid' })],
    ['a result that is not an object', (message: JsonRpcRequest) => ({ jsonrpc: '2.0', id: message.id, result: [] })],
  ])('rejects a tools/list response with %s', async (_what, respond) => {
    await expect(new McpClient(transport({ 'tools/list': respond })).tools()).rejects.toThrow(ProtocolError);
  });

  it('turns a JSON-RPC error into a ToolError with the server message', async () => {
    const client = new McpClient(transport({ 'tools/call': (message) => ({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Unknown tool: nope' } }) }));
    await expect(client.callTool('nope', {})).rejects.toThrow(new ToolError('Unknown tool: nope'));
  });

  it.each([
    ['without capabilities', { protocolVersion: '2025-06-18', serverInfo: { name: 't', version: '1' } }, 'MCP initialize result must include capabilities'],
    ['without a server version', { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 't' } }, 'MCP initialize result must include serverInfo name and version'],
  ])('rejects an initialize result %s', async (_what, result, message) => {
    await expect(new McpClient(transport({ initialize: (request) => ok(request, result) })).initialize()).rejects.toThrow(new ProtocolError(message));
  });

  it('loads every page and rejects repeated or oversized cursors', async () => {
    const paged = transport({
      'tools/list': (message) => (message.params?.cursor === undefined ? ok(message, { tools: [fakeTool('first')], nextCursor: 'page-2' }) : ok(message, { tools: [fakeTool('second')] })),
    });
    expect((await new McpClient(paged).tools()).map((tool) => tool.name)).toEqual(['first', 'second']);
    const repeated = transport({ 'tools/list': (message) => ok(message, { tools: [], nextCursor: 'same' }) });
    await expect(new McpClient(repeated).tools()).rejects.toThrow('MCP tools/list repeated a pagination cursor');
    const huge = transport({ 'tools/list': (message) => ok(message, { tools: [], nextCursor: 'x'.repeat(16 * 1024 + 1) }) });
    await expect(new McpClient(huge).tools()).rejects.toThrow('MCP tools/list nextCursor exceeded the 16384-byte limit');
    let page = 0;
    const endless = transport({ 'tools/list': (message) => ok(message, { tools: [], nextCursor: `p${++page}` }) });
    await expect(new McpClient(endless, { limits: { maxPages: 3 } }).tools()).rejects.toThrow('MCP tools/list exceeded 3 pages');
  });

  it('bounds the catalog and the complexity of definitions', async () => {
    const many = Array.from({ length: 4 }, (_, index) => fakeTool(`t${index}`));
    await expect(new McpClient(transport({}, many), { limits: { maxTools: 3 } }).tools()).rejects.toThrow('MCP tools/list exceeded 3 tools');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 70; depth++) deep = { type: 'object', properties: { x: deep } };
    await expect(new McpClient(transport({}, [fakeTool('deep', { inputSchema: deep })])).tools()).rejects.toThrow('MCP tool definition exceeds the 64-level depth limit');
    await expect(new McpClient(transport({}, [{ description: 'nameless' }])).tools()).rejects.toThrow('MCP tool definition must include a name');
    await expect(new McpClient(transport({}, [fakeTool('bad', { inputSchema: 'x' })])).tools()).rejects.toThrow('MCP tool inputSchema must be an object');
  });

  it('checks schema patterns and references at discovery', async () => {
    const invalid = fakeTool('invalid', { inputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '(' } } } });
    await expect(new McpClient(transport({}, [invalid])).tools()).rejects.toThrow('MCP tool inputSchema contains an invalid pattern');
    const oversized = fakeTool('oversized', { outputSchema: { type: 'object', properties: { v: { type: 'string', pattern: 'x'.repeat(64 * 1024 + 1) } } } });
    await expect(new McpClient(transport({}, [oversized])).tools()).rejects.toThrow('MCP tool outputSchema pattern exceeded the 65536-byte limit');
    const dangling = fakeTool('dangling', { outputSchema: { type: 'object', properties: { v: { $ref: '#/$defs/missing' } } } });
    await expect(new McpClient(transport({}, [dangling])).tools()).rejects.toThrow('MCP tool outputSchema contains an unresolved reference');
    const remote = fakeTool('remote', { outputSchema: { $ref: 'https://example.com/schema.json' } });
    await expect(new McpClient(transport({}, [remote])).tools()).rejects.toThrow(ProtocolError);
    const local = fakeTool('local', { outputSchema: { type: 'object', properties: { v: { $ref: '#/$defs/v' } }, $defs: { v: { type: 'string' } } } });
    expect(await new McpClient(transport({}, [local])).tools()).toHaveLength(1);
  });

  it('validates input with ECMAScript pattern semantics before calling the server', async () => {
    const match = fakeTool('match', { inputSchema: { type: 'object', properties: { value: { type: 'string', pattern: '^foo$' } } } });
    const [tool] = await new McpClient(transport({}, [match])).tools();
    expect(await tool!.input.check({ value: 'x\nfoo\ny' })).toMatchObject({ success: false, issues: [expect.stringContaining('$.value')] });
    expect(await tool!.input.check({ value: 'foo' })).toMatchObject({ success: true });
  });

  it('refuses image content beyond the limits, and malformed images', async () => {
    const image = { type: 'image', data: btoa('x'), mimeType: 'image/png' };
    const binding = { signal: new AbortController().signal, toolCallId: 'c', caller: 'application' } as never;
    const tooMany = transport({ 'tools/call': (message) => ok(message, { content: Array.from({ length: 21 }, () => image) }) });
    const [tool] = await new McpClient(tooMany).tools();
    await expect(tool!.execute({}, binding)).rejects.toThrow('MCP image content exceeds the 20-image limit');
    const loose = transport({ 'tools/call': (message) => ok(message, { content: [{ ...image, data: 'eA' }] }) });
    const [looseTool] = await new McpClient(loose).tools();
    await expect(looseTool!.execute({}, binding)).rejects.toThrow('MCP image content data must use strict base64');
    const big = transport({ 'tools/call': (message) => ok(message, { content: [{ ...image, data: btoa('x'.repeat(30)) }] }) });
    const [bigTool] = await new McpClient(big, { limits: { maxImageBytes: 20 } }).tools();
    await expect(bigTool!.execute({}, binding)).rejects.toThrow('MCP image content exceeds the 20-byte per-image limit');
  });

  it('rejects malformed result blocks', async () => {
    const cases: Array<[unknown, string]> = [
      [{ content: 'text' }, 'MCP tool result content must be an array'],
      [{ content: [{ text: 'x' }] }, 'MCP tool result content blocks must include a type'],
      [{ content: [{ type: 'text' }] }, 'MCP text content must include text'],
      [{ content: [], isError: 'yes' }, 'MCP tool result isError must be boolean'],
      [{ content: [], structuredContent: [1] }, 'MCP structuredContent must be an object'],
    ];
    for (const [result, message] of cases) {
      const client = new McpClient(transport({ 'tools/call': (request) => ok(request, result) }));
      await expect(client.callTool('search', {})).rejects.toThrow(new ProtocolError(message));
    }
  });

  it('cannot be used after close', async () => {
    const client = new McpClient(transport());
    await client.close();
    await client.close();
    expect(() => client.initialize()).toThrow('The MCP client was used after it was disposed');
  });
});
