import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { stdioMcpTransport } from 'ghostlight/node';
import { compileWorkflow, definePlannedWorkflow, mcpGateway, runWorkflow } from 'ghostlight/workflows';
import type { McpServerDeclaration } from 'ghostlight/workflows';

const require = createRequire(import.meta.url);
const everythingBin = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('declarative MCP over stdio (ghostlight/node)', () => {
  it('starts the real server-everything for each run and stops it when the run ends', async () => {
    const transports: Array<ReturnType<typeof stdioMcpTransport>> = [];
    const servers: McpServerDeclaration[] = [
      {
        id: 'everything',
        description: 'The MCP reference server.',
        transport: () => {
          const transport = stdioMcpTransport({ command: process.execPath, args: [everythingBin, 'stdio'] });
          transports.push(transport);
          return transport;
        },
      },
    ];
    const workflow = definePlannedWorkflow({ name: 'stdio-sum', description: 'Add two numbers.', tools: ['mcp_call_tool'] });
    const version = await compileWorkflow(
      workflow,
      { version: 'workflow-plan-v1', steps: [{ id: 'sum', uses: 'tool.call', with: { tool: 'mcp_call_tool' }, input: { server: 'everything', name: 'get-sum', arguments: { a: 20, b: 22 } } }] },
      { gateway: mcpGateway(servers) },
    );
    expect(transports).toHaveLength(0);
    for (const expected of [1, 2]) {
      const run = await runWorkflow(version, {}, { mcp: { servers } });
      expect(run.output).toBe('The sum of 20 and 22 is 42.');
      expect(transports).toHaveLength(expected);
      await expect(transports.at(-1)!.request({ jsonrpc: '2.0', id: 99, method: 'ping' }, {})).rejects.toThrow('the stdio transport is closed');
    }
  });
});
