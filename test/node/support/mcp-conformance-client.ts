/**
 * The MCP client the conformance suite runs: `conformance client --command
 * "node --import tsx <this file>" --scenario <name>` appends the server URL
 * and sets MCP_CONFORMANCE_SCENARIO. It drives a Ghostlight agent whose tools
 * come from that server through an MCP toolset, exactly as an application
 * would; a scripted model calls `add_numbers` when the server offers it.
 */
import { defineAgent } from 'ghostlight';
import { mcpToolset } from 'ghostlight/mcp';
import { scriptedModel } from '../../support/scripted-model';

const url = process.argv.at(-1);
if (!url) throw new Error('usage: mcp-conformance-client <server-url>');
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;

const model = scriptedModel([
  ...(scenario === 'tools_call' ? [{ toolCalls: [{ id: 'call-1', name: 'add_numbers', input: { a: 5, b: 3 } }] }] : []),
  { text: 'done' },
]);
const agent = defineAgent({ name: 'conformance', model, tools: [mcpToolset({ name: 'conformance', connection: { url, allowInsecureHttp: true } })] });
const run = await agent.ask(`Run the ${scenario} scenario`);
const results = run.steps.flatMap((step) => step.toolResults.map((result) => ({ tool: result.toolName, status: result.status, content: result.content })));
console.log(JSON.stringify({ scenario, outcome: run.outcome, offered: model.calls[0]?.tools?.map((tool) => tool.name) ?? [], results }));
if (run.outcome !== 'completed' || results.some((result) => result.status !== 'success')) process.exitCode = 1;
