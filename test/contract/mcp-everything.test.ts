import { describe, expect, inject, it } from 'vitest';
import { createToolRegistry, defineAgent } from 'ghostlight';
import { connectMcp, mcpToolset } from 'ghostlight/mcp';
import type { GhostlightEvent } from 'ghostlight';
import type { McpConnection } from 'ghostlight/mcp';
import { scriptedModel } from '../support/scripted-model';

// The real @modelcontextprotocol/server-everything, started in Node by the project's globalSetup
// (test/support/mcp-global-setup.ts) and reached over Streamable HTTP from Node, workerd and Chromium.
const origin = inject('mcpOrigin');
const everything: McpConnection = { url: `${origin}/mcp`, allowInsecureHttp: true };

const toolStops = (events: readonly GhostlightEvent[]) => events.filter((event) => event.type === 'tool-stop');

describe('an agent using the real MCP server-everything over Streamable HTTP', () => {
  it('offers the server tools to the model and calls get-sum', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 's1', name: 'get-sum', input: { a: 2, b: 3 } }] }, { text: 'Five.' }]);
    const agent = defineAgent({ name: 'calculator', model, tools: [mcpToolset({ name: 'everything', connection: everything })] });
    const run = await agent.ask('What is 2 + 3?');

    expect(run.outcome).toBe('completed');
    const offered = model.calls[0]?.tools?.map((tool) => tool.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-structured-content', 'get-tiny-image']));
    const getSum = model.calls[0]?.tools?.find((tool) => tool.name === 'get-sum') as { description?: string; inputSchema?: unknown } | undefined;
    expect(getSum?.description).toBe('Returns the sum of two numbers');
    expect(getSum?.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ status: 'success', value: 'The sum of 2 and 3 is 5.' });
    expect(toolStops(run.events)[0]).toMatchObject({ toolName: 'get-sum', status: 'success', content: 'The sum of 2 and 3 is 5.' });
  });

  it('returns structuredContent checked against the server outputSchema, and images as artifacts', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'w1', name: 'get-structured-content', input: { location: 'Chicago' } },
          { id: 'i1', name: 'get-tiny-image', input: {} },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({ name: 'reporter', model, tools: [mcpToolset({ connection: everything })] });
    const run = await agent.ask('Weather and logo');

    const [weather, image] = run.steps[0]?.toolResults ?? [];
    expect(weather).toMatchObject({ status: 'success', value: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 } });
    expect(JSON.parse(weather!.content)).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    expect(image).toMatchObject({ status: 'success', value: "Here's the image you requested:\nThe image above is the MCP logo." });
    expect(image?.artifacts).toHaveLength(1);
    const artifact = image!.artifacts[0]!;
    expect(artifact).toMatchObject({ kind: 'inline', mediaType: 'image/png' });
    expect([...(artifact as { data: Uint8Array }).data.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(image?.content).not.toContain('iVBORw0KGgo');
  });

  it('turns a failing server call into an error result and keeps going', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'f1', name: 'get-resource-reference', input: { resourceId: 0 } },
          { id: 'f2', name: 'get-sum', input: { a: 'two' } },
        ],
      },
      { text: 'Recovered.' },
    ]);
    const agent = defineAgent({ name: 'failing', model, tools: [mcpToolset({ connection: everything })] });
    const run = await agent.ask('Break things');

    expect(run.outcome).toBe('completed');
    const [serverError, invalidInput] = run.steps[0]?.toolResults ?? [];
    expect(serverError?.status).toBe('error');
    expect(serverError?.content).toContain('Invalid resourceId: 0');
    expect(invalidInput?.status).toBe('error');
    expect(invalidInput?.content).toMatch(/^Invalid tool input: /);
    expect(invalidInput?.content).toContain('$.a must be number');
    expect(invalidInput?.content).toContain('$.b is required');
    expect(run.response).toBe('Recovered.');
  });

  it('lets mapTool keep and rename tools while the server is still called by its own name', async () => {
    const seen: string[] = [];
    const toolset = mcpToolset({
      connection: (binding) => ({ ...everything, headers: { 'x-test-actor': binding.run.invocation.actorId ?? 'anonymous' } }),
      mapTool: (tool, { definition }) => {
        seen.push(definition.sourceName);
        return definition.sourceName === 'get-sum' ? { ...tool, name: 'add_numbers', description: 'Add two numbers.' } : null;
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'add_numbers', input: { a: 40, b: 2 } }] }, { text: '42' }]);
    const run = await defineAgent({ name: 'mapped', model, tools: [toolset] }).ask('40 + 2', { actorId: 'user-1' });

    expect(seen).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(model.calls[0]?.tools?.map((tool) => tool.name)).toEqual(['add_numbers']);
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'add_numbers', status: 'success', value: 'The sum of 40 and 2 is 42.' });
  });

  it('treats a server without tools as an empty toolset', async () => {
    const model = scriptedModel([{ text: 'Nothing to use.' }]);
    const agent = defineAgent({ name: 'empty', model, tools: [mcpToolset({ connection: { url: `${origin}/empty/mcp`, allowInsecureHttp: true } })] });
    const run = await agent.ask('Anything?');
    expect(run.outcome).toBe('completed');
    expect(model.calls[0]?.tools ?? []).toEqual([]);
  });

  it('reads JSON responses as well as event streams', async () => {
    const client = await connectMcp({ url: `${origin}/json/mcp`, allowInsecureHttp: true, name: 'everything' });
    try {
      expect(client.server).toMatchObject({ name: 'mcp-servers/everything', protocolVersion: '2025-06-18' });
      const result = await client.callTool('get-sum', { a: 1, b: 1 });
      expect(result.content).toEqual([{ type: 'text', text: 'The sum of 1 and 1 is 2.' }]);
    } finally {
      await client.close();
    }
  });

  it('attaches the tools of an application-owned client to a registry under a prefix', async () => {
    const client = await connectMcp({ ...everything, name: 'everything' });
    try {
      const registry = createToolRegistry();
      const ids = registry.attachMcpTools(await client.tools(), { prefix: 'everything' });
      expect(ids).toEqual(expect.arrayContaining(['everything.get-sum', 'everything.echo']));
      const model = scriptedModel([{ toolCalls: [{ id: 'e1', name: 'everything__echo', input: { message: 'hi' } }] }, { text: 'ok' }]);
      const run = await defineAgent({ name: 'registry', model, tools: ['everything.echo'] }).ask('echo', { toolRegistry: registry });
      expect(run.steps[0]?.toolResults[0]).toMatchObject({ toolName: 'everything.echo', status: 'success', value: 'Echo: hi' });
    } finally {
      await client.close();
    }
  });
});
