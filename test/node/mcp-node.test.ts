import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdioMcpTransport } from 'ghostlight/node';
import { defineAgent } from 'ghostlight';
import { connectMcp, McpConnectionError, mcpToolset } from 'ghostlight/mcp';
import { startEverythingServer } from '../support/mcp-everything-server';
import { startLegacySseServer } from '../support/mcp-legacy-sse-server';
import { scriptedModel } from '../support/scripted-model';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const everythingBin = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const sumAgent = (tools: Parameters<typeof defineAgent>[0]['tools']) =>
  defineAgent({
    name: 'sum',
    model: scriptedModel([{ toolCalls: [{ id: 's1', name: 'get-sum', input: { a: 20, b: 22 } }] }, { text: '42' }]),
    tools,
  });

describe('MCP sessions belong to the run', () => {
  let server: Awaited<ReturnType<typeof startEverythingServer>>;
  beforeAll(async () => {
    server = await startEverythingServer();
  });
  afterAll(() => server.close());

  it('ends the server session when the run ends, whatever the outcome', async () => {
    const toolset = mcpToolset({ connection: { url: `${server.url}/mcp`, allowInsecureHttp: true } });
    const completed = await sumAgent([toolset]).ask('20 + 22');
    expect(completed.steps[0]?.toolResults[0]?.value).toBe('The sum of 20 and 22 is 42.');
    expect(server.sessions()).toBe(0);

    const failing = defineAgent({ name: 'failing', model: scriptedModel([{ error: new Error('provider down') }]), tools: [toolset] });
    expect((await failing.ask('x')).outcome).toBe('failed');
    expect(server.sessions()).toBe(0);
  });

  it('leaves an application-owned client open until the application closes it', async () => {
    const client = await connectMcp({ url: `${server.url}/mcp`, allowInsecureHttp: true });
    await client.tools();
    expect(server.sessions()).toBe(1);
    await client.close();
    expect(server.sessions()).toBe(0);
    await expect(client.tools()).rejects.toThrow('The MCP client was used after it was disposed');
  });
});

describe('the legacy HTTP+SSE transport', () => {
  let server: Awaited<ReturnType<typeof startLegacySseServer>>;
  beforeAll(async () => {
    server = await startLegacySseServer();
  });
  afterAll(() => server.close());

  it.each(['auto', 'sse'] as const)('serves an agent from an old server (transport: %s)', async (transport) => {
    const run = await sumAgent([mcpToolset({ connection: { url: server.url, allowInsecureHttp: true, transport } })]).ask('20 + 22');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ status: 'success', value: 'The sum of 20 and 22 is 42.' });
  });

  it('does not fall back when Streamable HTTP is required', async () => {
    await expect(connectMcp({ url: server.url, allowInsecureHttp: true, transport: 'streamable-http' })).rejects.toThrow(
      'MCP request failed with HTTP 405',
    );
  });
});

describe('the stdio transport (ghostlight/node)', () => {
  it('runs the real server-everything as a child process for one run and stops it', async () => {
    const transports: Array<ReturnType<typeof stdioMcpTransport>> = [];
    const toolset = mcpToolset({
      name: 'everything-stdio',
      connection: () => {
        const transport = stdioMcpTransport({ command: process.execPath, args: [everythingBin, 'stdio'] });
        transports.push(transport);
        return { transport };
      },
    });
    const run = await sumAgent([toolset]).ask('20 + 22');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults[0]?.value).toBe('The sum of 20 and 22 is 42.');
    expect(transports).toHaveLength(1);
    await expect(transports[0]!.request({ jsonrpc: '2.0', id: 99, method: 'ping' }, {})).rejects.toThrow('the stdio transport is closed');
  });
});

describe('the real @modelcontextprotocol/server-filesystem over stdio', () => {
  const filesystemBin = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  it('is accepted (its schemas have properties named pattern) and serves a directory listing', async () => {
    const { mkdtemp: makeTemp, writeFile } = await import('node:fs/promises');
    const root = await makeTemp(join(tmpdir(), 'ghostlight-mcp-fs-'));
    try {
      await writeFile(join(root, 'notes.txt'), 'hello');
      const transport = stdioMcpTransport({ command: process.execPath, args: [filesystemBin, root] });
      const client = await connectMcp({ transport });
      try {
        const tools = await client.tools();
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['list_directory', 'search_files', 'read_text_file']));
        const search = tools.find((tool) => tool.name === 'search_files')!;
        expect(JSON.stringify(search.input.jsonSchema)).toContain('"pattern"');
      } finally {
        await client.close();
      }
      const agent = defineAgent({
        name: 'files',
        model: scriptedModel([{ toolCalls: [{ id: 'l1', name: 'list_directory', input: { path: root } }] }, { text: 'one file' }]),
        tools: [mcpToolset({ name: 'filesystem', connection: () => ({ transport: stdioMcpTransport({ command: process.execPath, args: [filesystemBin, root] }) }) })],
      });
      const run = await agent.ask('What is there?');
      expect(run.outcome).toBe('completed');
      expect(run.steps[0]?.toolResults[0]?.content).toContain('notes.txt');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('MCP servers that cannot be reached', () => {
  it('make connectMcp reject with McpConnectionError naming the server, and a run fail with that cause', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/mcp`;
    const error = await connectMcp({ url, allowInsecureHttp: true }).then(() => undefined, (caught: unknown) => caught);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`MCP transport failed: the MCP server at http://127.0.0.1:${port} could not be reached (TypeError)`);

    const agent = defineAgent({ name: 'unreachable', model: scriptedModel([{ text: 'never' }]), tools: [mcpToolset({ name: 'docs', connection: { url, allowInsecureHttp: true } })] });
    const run = await agent.ask('Hi');
    expect(run.outcome).toBe('failed');
    expect(run.errorInfo?.name).toBe('McpConnectionError');
    expect(McpConnectionError.isInstance(run.error)).toBe(true);
    expect(run.events.map((event) => event.type)).toEqual(['run-start', 'invocation-start', 'invocation-error', 'run-error']);
  });
});

describe.concurrent('the MCP conformance suite (client scenarios)', () => {
  const conformanceBin = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
  let bundle: string;
  beforeAll(async () => {
    // One bundle of the client script: node starts it in ~0.2 s instead of ~1.9 s through a TS loader.
    bundle = join(await mkdtemp(join(tmpdir(), 'ghostlight-conformance-client-')), 'client.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('./support/mcp-conformance-client.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
      logLevel: 'error',
    });
  });
  afterAll(() => rm(dirname(bundle), { recursive: true, force: true }));

  it.for(['initialize', 'tools_call'])('passes %s', async (scenario, { expect }) => {
    const output = await mkdtemp(join(tmpdir(), 'ghostlight-conformance-'));
    try {
      const command = `${process.execPath} ${bundle}`;
      await run(process.execPath, [conformanceBin, 'client', '--command', command, '--scenario', scenario, '--output-dir', output], {
        cwd: output,
        timeout: 60_000,
      });
      const [folder] = await readdir(output);
      const checks = JSON.parse(await readFile(join(output, folder!, 'checks.json'), 'utf8')) as Array<{ id: string; status: string }>;
      expect(checks.filter((check) => check.status !== 'INFO').map((check) => [check.id, check.status])).toEqual(
        scenario === 'initialize' ? [['mcp-client-initialization', 'SUCCESS']] : [['tool-add-numbers', 'SUCCESS']],
      );
      const report = JSON.parse((await readFile(join(output, folder!, 'stdout.txt'), 'utf8')).trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(report).toMatchObject(
        scenario === 'initialize'
          ? { outcome: 'completed', offered: [], results: [] }
          : { outcome: 'completed', offered: ['add_numbers'], results: [{ tool: 'add_numbers', status: 'success', content: 'The sum of 5 and 3 is 8' }] },
      );
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  });
});
