// Ghostlight's own MCP client against the official SDK client (@modelcontextprotocol/sdk), both talking to the
// real server-everything mounted in-process on 127.0.0.1 over Streamable HTTP: whole sessions, single calls,
// and what each adds to a bundle (esbuild, minified, gzip -9, workerd-style resolution).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { connectMcp } from 'ghostlight/mcp';
import { startEverythingServer } from '../test/support/mcp-everything-server';
import { median, ms, sample } from './harness';
import type { BenchSection } from './harness';

const SESSIONS = 30;
const CALLS = 300;
const root = fileURLToPath(new URL('..', import.meta.url));

async function ghostlightSession(url: string): Promise<void> {
  const client = await connectMcp({ url, allowInsecureHttp: true });
  await client.tools();
  await client.callTool('get-sum', { a: 1, b: 2 });
  await client.close();
}

async function sdkSession(url: string): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
  await transport.terminateSession();
  await client.close();
}

async function bundleSize(contents: string): Promise<{ min: number; gz: number }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

export async function bench(): Promise<BenchSection> {
  const server = await startEverythingServer();
  const url = `${server.url}/mcp`;
  try {
    const rounds: Array<[number, number]> = [];
    for (let round = 0; round < 3; round++) {
      rounds.push([median(await sample(() => ghostlightSession(url), SESSIONS / 3)), median(await sample(() => sdkSession(url), SESSIONS / 3))]);
    }
    const ours = median(rounds.map(([value]) => value));
    const theirs = median(rounds.map(([, value]) => value));

    const client = await connectMcp({ url, allowInsecureHttp: true });
    const toolCount = (await client.tools()).length;
    const sdkTransport = new StreamableHTTPClientTransport(new URL(url));
    const sdk = new Client({ name: 'bench', version: '1.0.0' });
    await sdk.connect(sdkTransport);
    await sdk.listTools();
    const ourCall = median(await sample(() => client.callTool('get-sum', { a: 1, b: 2 }), CALLS, 20));
    const sdkCall = median(await sample(() => sdk.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }), CALLS, 20));
    await client.close();
    await sdkTransport.terminateSession();
    await sdk.close();

    const core = await bundleSize(`export { defineAgent, defineTool } from './src/index';`);
    const withMcp = await bundleSize(`export { defineAgent, defineTool, mcpToolset, connectMcp } from './src/index';`);
    const sdkAlone = await bundleSize(
      `export { Client } from '@modelcontextprotocol/sdk/client/index.js'; export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';`,
    );
    const coreWithSdk = await bundleSize(
      `export { defineAgent, defineTool } from './src/index'; export { Client } from '@modelcontextprotocol/sdk/client/index.js'; export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';`,
    );

    const markdown = `
Each session: connect (\`initialize\` + \`notifications/initialized\`), list the tools, call \`get-sum\`, end the
session (\`DELETE\`). ${SESSIONS} sessions per client in 3 alternating rounds (medians of medians), then ${CALLS}
sequential \`get-sum\` calls on one open session. Server: the real \`@modelcontextprotocol/server-everything\`
behind the SDK's \`WebStandardStreamableHTTPServerTransport\` and Hono on 127.0.0.1 (SSE responses).

| client | session | one call |
|---|---|---|
| Ghostlight \`connectMcp\` (own client over \`fetch\`) | ${ms(ours)} | ${ms(ourCall)} |
| \`@modelcontextprotocol/sdk\` \`Client\` + \`StreamableHTTPClientTransport\` | ${ms(theirs)} | ${ms(sdkCall)} |

**Ratio Ghostlight / SDK: ${(ours / theirs).toFixed(2)}× per session, ${(ourCall / sdkCall).toFixed(2)}× per call.** Ghostlight's
session also builds Ghostlight tools from the ${toolCount} definitions (schemas resolved, names normalised, complexity and
pattern checks); the SDK's only parses them.

Bundle cost (esbuild 0.28, minified, gzip -9, workerd conditions, \`node:*\` external):

| entry | min | gzip |
|---|---|---|
| Ghostlight core (\`defineAgent\`, \`defineTool\`) | ${kib(core.min)} | ${kib(core.gz)} |
| core + \`mcpToolset\`, \`connectMcp\` | ${kib(withMcp.min)} (+${kib(withMcp.min - core.min)}) | ${kib(withMcp.gz)} (+${kib(withMcp.gz - core.gz)}) |
| core + SDK \`Client\` + \`StreamableHTTPClientTransport\` | ${kib(coreWithSdk.min)} (+${kib(coreWithSdk.min - core.min)}) | ${kib(coreWithSdk.gz)} (+${kib(coreWithSdk.gz - core.gz)}) |
| SDK client alone | ${kib(sdkAlone.min)} | ${kib(sdkAlone.gz)} |

For \`@ai-sdk/mcp\`'s \`createMCPClient\`, LANDSCAPE.md C.4 measured 544 KiB min / 119 KiB gzip on its own, 443 KiB
of it zod.
`;
    return { key: 'mcp', title: 'MCP client (issue 7)', markdown };
  } finally {
    await server.close();
  }
}
