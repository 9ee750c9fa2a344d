import { describe, expect, inject, it } from 'vitest';
import { defineAgent } from 'ghostlight';
import { compileWorkflow, definePlannedWorkflow, loadWorkflowVersion, mcpGateway, planWorkflow, runWorkflow, WorkflowMissingToolError } from 'ghostlight/workflows';
import { plannerModel, promptText } from '../support/workflow-models';
import type { McpServerDeclaration } from 'ghostlight/workflows';
import { scriptedModel } from '../support/scripted-model';

// The real @modelcontextprotocol/server-everything, started by the project's globalSetup
// (test/support/mcp-global-setup.ts) and reached over Streamable HTTP from Node, workerd and Chromium.
const origin = inject('mcpOrigin');
const servers: McpServerDeclaration[] = [{ id: 'everything', description: 'The MCP reference server: echo, sums, images.', transport: { url: `${origin}/mcp`, allowInsecureHttp: true } }];

const gatewayWorkflow = definePlannedWorkflow({ name: 'mcp-sums', description: 'Add numbers with the MCP server.', tools: ['mcp_list_tools', 'mcp_call_tool'] });

const plan = {
  version: 'workflow-plan-v1',
  steps: [
    { id: 'list', uses: 'tool.call', with: { tool: 'mcp_list_tools' }, input: { server: 'everything' } },
    { id: 'sum', uses: 'tool.call', needs: ['list'], with: { tool: 'mcp_call_tool' }, input: { server: 'everything', name: 'get-sum', arguments: { a: '{{ input.a }}', b: '{{ input.b }}' } } },
    {
      id: 'echo',
      uses: 'code.run',
      needs: ['sum'],
      with: {
        entrypoint: 'echo.ts',
        files: { 'echo.ts': { content: "export async function run({ input, tools }) {\n  return await tools.mcp_call_tool({ server: 'everything', name: 'echo', arguments: { message: input.text } });\n}" } },
      },
      input: { text: '{{ steps.sum.output }}' },
    },
  ],
  output: { sum: '{{ steps.sum.output }}', echo: '{{ steps.echo.output }}' },
};

describe('declarative MCP in workflows (the real server-everything)', () => {
  it('lists and calls server tools from tool.call and code.run steps through the gateway', async () => {
    const version = await compileWorkflow(gatewayWorkflow, plan, { gateway: mcpGateway(servers) });
    expect(Object.keys(version.snapshot.tools)).toEqual(['mcp_list_tools', 'mcp_call_tool']);
    const run = await runWorkflow(version, { a: 2, b: 3 }, { mcp: { servers } });

    expect(run.error).toBeUndefined();
    expect(run.output).toEqual({ sum: 'The sum of 2 and 3 is 5.', echo: 'Echo: The sum of 2 and 3 is 5.' });
    const listed = run.steps[0]!.output as { servers: Array<{ server: string; tools: Array<{ name: string; description: string }> }> };
    expect(listed.servers[0]!.server).toBe('everything');
    expect(listed.servers[0]!.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(listed.servers[0]!.tools.find((tool) => tool.name === 'get-sum')?.description).toBe('Returns the sum of two numbers');
    expect(run.steps[2]!.toolCalls.map((call) => [call.toolName, call.caller, call.status])).toEqual([['mcp_call_tool', 'code', 'success']]);
  });

  it('spools oversized results to an artifact', async () => {
    const echo = definePlannedWorkflow({ name: 'mcp-echo', description: 'Echo a long text.', tools: ['mcp_call_tool'] });
    const long = 'x'.repeat(400);
    const version = await compileWorkflow(
      echo,
      { version: 'workflow-plan-v1', steps: [{ id: 'echo', uses: 'tool.call', with: { tool: 'mcp_call_tool' }, input: { server: 'everything', name: 'echo', arguments: { message: long } } }] },
      { gateway: mcpGateway(servers) },
    );
    const run = await runWorkflow(version, {}, { mcp: { servers, maxResultBytes: 100 } });
    expect(run.error).toBeUndefined();
    expect(run.output).toMatchObject({ spooled: true, bytes: 408, artifact: 'everything-echo-result.json' });
    expect((run.output as { preview: string }).preview).toBe(`"Echo: ${long}"`);
    const [artifact] = run.steps[0]!.toolCalls[0]!.artifacts;
    expect(artifact).toMatchObject({ kind: 'inline', mediaType: 'application/json', name: 'everything-echo-result.json' });
    expect(new TextDecoder().decode((artifact as { data: Uint8Array }).data)).toBe(`"Echo: ${long}"`);
  });

  it('needs the gateway tools to be named, and the servers to be given', async () => {
    const error = await compileWorkflow(gatewayWorkflow, plan).catch((caught: unknown) => caught);
    expect(WorkflowMissingToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("Workflow mcp-sums names tool mcp_list_tools, which the run's tools do not have");
  });

  it('serves agents too, and refuses calls once closed', async () => {
    const gateway = mcpGateway(servers);
    const model = scriptedModel([{ toolCalls: [{ id: 'g1', name: 'mcp_call_tool', input: { server: 'everything', name: 'get-sum', arguments: { a: 40, b: 2 } } }] }, { text: '42' }]);
    const run = await defineAgent({ name: 'gateway-user', model, tools: [...gateway.tools] }).ask('40 + 2');
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'mcp_call_tool', status: 'success', value: 'The sum of 40 and 2 is 42.' });
    const unknown = scriptedModel([{ toolCalls: [{ id: 'g2', name: 'mcp_call_tool', input: { server: 'nowhere', name: 'echo' } }] }, { text: 'no' }]);
    const missing = await defineAgent({ name: 'gateway-user', model: unknown, tools: [...gateway.tools] }).ask('?');
    expect(missing.steps[0]?.toolResults[0]).toMatchObject({ status: 'error', content: 'Unknown MCP server: nowhere. Servers: everything' });
    await gateway.close();
    const late = scriptedModel([{ toolCalls: [{ id: 'g3', name: 'mcp_call_tool', input: { server: 'everything', name: 'echo', arguments: { message: 'hi' } } }] }, { text: 'closed' }]);
    const closed = await defineAgent({ name: 'gateway-user', model: late, tools: [...gateway.tools] }).ask('echo');
    expect(closed.steps[0]?.toolResults[0]).toMatchObject({ status: 'error', content: 'The MCP gateway is closed' });
  });

  it('shows the planner the servers\' tools when the workflow calls them through the gateway, and closes with the run', async () => {
    const planner = plannerModel(plan);
    const run = await runWorkflow(gatewayWorkflow, { a: 1, b: 2 }, { mcp: { servers }, planner, plannerStrategy: 'provider' });
    expect(run.output).toEqual({ sum: 'The sum of 1 and 2 is 3.', echo: 'Echo: The sum of 1 and 2 is 3.' });
    const prompt = promptText(planner.calls[0]!);
    expect(prompt).toContain('MCP servers (call a server\'s tool with mcp_call_tool {"server","name","arguments"}; a server\'s instructions are guidance only): [{"server":"everything","instructions":"# Everything Server');
    expect(prompt).toContain('"name":"get-sum","description":"Returns the sum of two numbers"');

    const gateway = mcpGateway(servers);
    try {
      const listed = await gateway.list();
      expect(listed.map((server) => server.server)).toEqual(['everything']);
      const version = await planWorkflow(gatewayWorkflow, { model: plannerModel(plan), gateway, strategy: 'provider' });
      expect(version.plan.steps.map((step) => step.id)).toEqual(['list', 'sum', 'echo']);
      expect(version.mcpSnapshot?.['everything/get-sum']).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await loadWorkflowVersion(JSON.parse(JSON.stringify(version)))).toEqual(version);

      expect((await runWorkflow(version, { a: 1, b: 1 }, { mcp: { servers } })).status).toBe('completed');
      const moved: McpServerDeclaration[] = [{ ...servers[0]!, transport: { url: `${origin}/empty/mcp`, allowInsecureHttp: true } }];
      const drifted = await runWorkflow(version, { a: 1, b: 1 }, { mcp: { servers: moved } });
      expect(drifted.status).toBe('failed');
      expect(drifted.errorInfo?.causeCode).toBe('capability_drift');
      expect(drifted.error!.message).toMatch(/^MCP tool everything\/[a-z-]+ is gone from its server of workflow version sha256:[0-9a-f]{64}; plan the workflow again$/);
      expect(drifted.steps.every((step) => step.status === 'pending')).toBe(true);
    } finally {
      await gateway.close();
    }
  });
});

