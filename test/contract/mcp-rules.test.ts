import { describe, expect, it } from 'vitest';
import { ConfigurationError, ProtocolError, ProviderError, ToolError, defineAgent, toolResult, createArtifact } from 'ghostlight';
import { MCP_PROTOCOL_VERSION, connectMcp, mcpToolset } from 'ghostlight/mcp';
import type { Tool, ToolBinding, ToolResult } from 'ghostlight';
import type { McpConnection } from 'ghostlight/mcp';
import { sha256Hex } from '../../src/util/sha256';
import { fakeMcpFetch, fakeTool } from '../support/fake-mcp';
import type { FakeMcpServer } from '../support/fake-mcp';
import { scriptedModel } from '../support/scripted-model';

const URL = 'https://mcp.example/mcp';
const binding = (): ToolBinding => ({
  run: { runId: 'run-1', invocation: { runId: 'run-1', sessionId: 'run-1', actorId: 'user-1', context: {}, metadata: {}, deadline: undefined } },
  agent: { name: 'test' },
  state: {},
  signal: new AbortController().signal,
});
const connectionTo = (server: FakeMcpServer = {}): McpConnection & { fetch: ReturnType<typeof fakeMcpFetch> } => ({
  url: URL,
  fetch: fakeMcpFetch(server),
});
const toolsOf = (provider: (binding: ToolBinding) => Promise<Tool[]>) => provider(binding());
const png = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47));

describe('MCP tool names (C.60)', () => {
  it('normalises names to [a-zA-Z0-9_-] and bounds long ones with a digest', async () => {
    const long = `search.${'a'.repeat(100)}`;
    const tools = await toolsOf(mcpToolset({ connection: connectionTo({ tools: [fakeTool('docs/search v2'), fakeTool(long)] }) }));
    const normalized = long.replace(/[^a-zA-Z0-9_-]/g, '_');
    expect(tools.map((tool) => tool.name)).toEqual([
      'docs_search_v2',
      `${normalized.slice(0, 51)}_${(await sha256Hex(normalized)).slice(0, 12)}`,
    ]);
    expect(tools[1]!.name).toHaveLength(64);
  });

  it('rejects two server names that map to one tool name', async () => {
    const toolset = mcpToolset({ connection: connectionTo({ tools: [fakeTool('a.b'), fakeTool('a/b')] }), optional: true });
    await expect(toolsOf(toolset)).rejects.toThrow(new ConfigurationError('MCP tools "a.b" and "a/b" map to "a_b"'));
  });

  it('describes a tool without a description by its toolset', async () => {
    const toolset = mcpToolset({ name: 'atlas', connection: connectionTo({ tools: [{ name: 'bare' }] }) });
    expect(await toolsOf(toolset)).toMatchObject([{ name: 'bare', description: 'MCP tool from atlas' }]);
  });
});

describe('optional MCP toolsets (C.61)', () => {
  it('turn discovery ProviderError, ProtocolError and ToolError into no tools and report them', async () => {
    const failing: Array<[string, McpConnection, (error: unknown) => boolean]> = [
      ['provider', { url: URL, fetch: (async () => { throw new TypeError('fetch failed'); }) as typeof fetch }, ProviderError.isInstance],
      ['protocol', connectionTo({ tools: 'not an array' as never }), ProtocolError.isInstance],
      ['json-rpc error', connectionTo({ tools: () => { throw new Error('listing is down'); } }), ToolError.isInstance],
    ];
    for (const [what, connection, isExpected] of failing) {
      const seen: Array<{ error: unknown; binding: ToolBinding }> = [];
      const toolset = mcpToolset({ connection, optional: true, onError: (error, context) => void seen.push({ error, binding: context.binding }) });
      const current = binding();
      expect(await toolset(current), what).toEqual([]);
      expect(seen, what).toHaveLength(1);
      expect(isExpected(seen[0]!.error), what).toBe(true);
      expect(seen[0]!.binding).toBe(current);
    }
    await expect(toolsOf(mcpToolset({ connection: connectionTo({ tools: 'x' as never }) }))).rejects.toThrow(ProtocolError);
  });

  it('let failures of the application callbacks propagate', async () => {
    const policy = mcpToolset({ connection: () => { throw new ToolError('caller policy failed'); }, optional: true });
    await expect(toolsOf(policy)).rejects.toThrow(new ToolError('caller policy failed'));
    const mapper = mcpToolset({ connection: connectionTo(), optional: true, mapTool: () => { throw new ProtocolError('mapper broke'); } });
    await expect(toolsOf(mapper)).rejects.toThrow('mapper broke');
    const signer = mcpToolset({ connection: { ...connectionTo(), sign: () => { throw new ProviderError('no credentials'); } }, optional: true });
    await expect(toolsOf(signer)).rejects.toThrow('no credentials');
    const wrongMapper = mcpToolset({ connection: connectionTo(), optional: true, mapTool: () => ({ name: 'x' }) as never });
    await expect(toolsOf(wrongMapper)).rejects.toThrow('MCP tool mapper must return the generated tool, a tool derived from it, or null');
  });

  it('open one session per run, resolved from the run binding, and close it when the run ends', async () => {
    const fetch = fakeMcpFetch();
    const actors: unknown[] = [];
    const toolset = mcpToolset({
      connection: (current) => {
        actors.push(current.run.invocation.actorId);
        return { url: URL, fetch, headers: { authorization: `Bearer ${current.run.invocation.actorId}` } };
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'search', input: {} }] }, { text: 'one' }, { text: 'two' }]);
    const agent = defineAgent({ name: 'sessions', model, tools: [toolset] });
    await agent.ask('first', { actorId: 'alice' });
    await agent.ask('second', { actorId: 'bob' });
    expect(actors).toEqual(['alice', 'bob']);
    const byMethod = fetch.requests.map((request) => request.message?.method ?? request.method);
    expect(byMethod).toEqual([
      'initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'DELETE',
      'initialize', 'notifications/initialized', 'tools/list', 'DELETE',
    ]);
    expect(fetch.requests[3]!.headers.get('authorization')).toBe('Bearer alice');
    expect(fetch.requests[3]!.headers.get('mcp-session-id')).toBe('fake-session-1');
    expect(fetch.requests[3]!.headers.get('mcp-protocol-version')).toBe(MCP_PROTOCOL_VERSION);
    expect(fetch.requests[5]!.headers.get('authorization')).toBe('Bearer bob');
  });
});

describe('MCP results (C.62)', () => {
  const counter = fakeTool('count', {
    outputSchema: { type: 'object', properties: { count: { const: 1 } }, required: ['count'] },
  });

  it('return structuredContent as the value and reject results that break the outputSchema', async () => {
    const good = await connectMcp({ ...connectionTo({ tools: [counter], call: () => ({ content: [], structuredContent: { count: 1 } }) }) });
    const [tool] = await good.tools();
    expect(tool?.output?.jsonSchema).toMatchObject({ required: ['count'] });
    expect((await good.callTool('count', {})).structuredContent).toEqual({ count: 1 });

    const bad = await connectMcp({ ...connectionTo({ tools: [counter], call: () => ({ content: [], structuredContent: { count: 2 } }) }) });
    await bad.tools();
    await expect(bad.callTool('count', {})).rejects.toThrow(ProtocolError);
    await expect(bad.callTool('count', {})).rejects.toThrow(/^MCP structuredContent did not match outputSchema: \$\.count /);
    const missing = await connectMcp({ ...connectionTo({ tools: [counter], call: () => ({ content: [{ type: 'text', text: '1' }] }) }) });
    await missing.tools();
    await expect(missing.callTool('count', {})).rejects.toThrow('MCP tool result omitted structuredContent required by outputSchema');
  });

  it('make isError an error result, and a broken result an undisclosed tool failure', async () => {
    const calls: Record<string, unknown> = {
      refuse: { content: [{ type: 'text', text: 'safe failure' }], isError: true },
      count: { content: [], structuredContent: { count: 2 } },
    };
    const toolset = mcpToolset({ connection: connectionTo({ tools: [fakeTool('refuse'), counter], call: ({ name }) => calls[name] }) });
    const model = scriptedModel([{ toolCalls: [{ name: 'refuse', input: {} }, { name: 'count', input: {} }] }, { text: 'Handled.' }]);
    const run = await defineAgent({ name: 'results', model, tools: [toolset] }).ask('go');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults.map((result) => [result.status, result.content])).toEqual([
      ['error', 'safe failure'],
      ['error', 'Tool failed (ProtocolError)'],
    ]);
  });

  it('keep machine values, add images as artifacts, and let mapResult replace the value', async () => {
    const server: FakeMcpServer = {
      call: ({ name }) =>
        name === 'chart'
          ? { content: [{ type: 'image', data: png, mimeType: 'image/png' }] }
          : { content: [{ type: 'text', text: 'summary' }, { type: 'image', data: png, mimeType: 'image/png' }] },
      tools: [fakeTool('chart'), fakeTool('report')],
    };
    const [chart, report] = await toolsOf(mcpToolset({ connection: connectionTo(server) }));
    const callBinding = { ...binding(), toolCallId: 'c1', caller: 'application' as const };
    const chartResult = (await chart!.execute({}, callBinding)) as ToolResult;
    expect(chartResult.value).toEqual({ images: [{ mediaType: 'image/png', bytes: 4 }] });
    expect(chartResult.artifacts[0]).toMatchObject({ kind: 'inline', mediaType: 'image/png' });

    const mapped = mcpToolset({
      connection: connectionTo(server),
      mapResult: (result, { call }) =>
        toolResult({ value: { mapped: result.content[0]?.text, tool: call.definition.sourceName }, artifacts: [createArtifact({ data: 'x', mediaType: 'text/plain' })] }),
    });
    const [, mappedReport] = await toolsOf(mapped);
    const mappedResult = (await mappedReport!.execute({}, callBinding)) as ToolResult;
    expect(mappedResult.value).toEqual({ mapped: 'summary', tool: 'report' });
    expect(mappedResult.artifacts.map((artifact) => artifact.mediaType)).toEqual(['text/plain', 'image/png']);
    expect(await report!.execute({}, callBinding)).toMatchObject({ value: 'summary' });
  });
});

describe('MCP connections (C.63)', () => {
  it('require HTTPS unless plain HTTP to a loopback host is explicitly allowed', async () => {
    expect(() => mcpToolset({ connection: { url: 'http://mcp.example/mcp' } })).toThrow(
      new ConfigurationError('MCP URL must use HTTPS unless allowInsecureHttp is enabled'),
    );
    expect(() => mcpToolset({ connection: { url: 'http://mcp.example/mcp', allowInsecureHttp: true } })).toThrow(
      'MCP URL may use plain HTTP only for a loopback host (127.0.0.1, ::1 or localhost)',
    );
    expect(() => mcpToolset({ connection: { url: 'ftp://mcp.example/' } })).toThrow('MCP URL must be an HTTP(S) URL');
    for (const url of ['http://127.0.0.1:9/mcp', 'http://localhost:9/mcp', 'http://[::1]:9/mcp']) {
      expect(() => mcpToolset({ connection: { url, allowInsecureHttp: true } })).not.toThrow();
    }
    expect(() => mcpToolset({ name: 'atlas', connection: { url: URL, timeout: 5 } as never })).toThrow('atlas connection contains unknown option "timeout"');
    expect(() => mcpToolset({ name: 'atlas', connection: {} })).toThrow('atlas connection must include a URL');
    await expect(toolsOf(mcpToolset({ connection: () => ({ url: 'http://10.0.0.1/mcp' }), optional: true }))).rejects.toThrow(ConfigurationError);
  });

  it('reject a server that negotiates another protocol version', async () => {
    const older = connectionTo({ initialize: () => ({ protocolVersion: '2025-03-26', capabilities: {}, serverInfo: { name: 'old', version: '1' } }) });
    await expect(connectMcp(older)).rejects.toThrow(new ProtocolError('MCP server did not negotiate protocol 2025-06-18'));
    expect(older.fetch.requests[0]?.message?.params).toMatchObject({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ghostlight' } });
    expect(older.fetch.requests.some((request) => request.message?.method === 'notifications/initialized')).toBe(false);
  });
});
