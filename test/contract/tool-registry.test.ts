import { jsonSchema, tool } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, MissingToolError, RunFailedError, createToolRegistry, defineAgent, defineTool, descriptorHash, toolAlias } from 'ghostlight';
import type { GhostlightEvent, RunCapability, Tool, ToolRegistry } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';
import { codeMode } from 'ghostlight/code-mode';

function lookupTool(overrides: { description?: string; output?: object; input?: object; answer?: string } = {}) {
  return defineTool({
    name: 'lookup',
    description: overrides.description ?? 'Look up a help center entry.',
    input: overrides.input ?? v.strictObject({ topic: v.string() }),
    output: overrides.output,
    execute: (input) => ({ topic: (input as { topic: string }).topic, answer: overrides.answer ?? 'Refunds take 5 days.' }),
  });
}

const search = (answer: string) =>
  tool({
    description: 'Search the knowledge base.',
    inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
    execute: async ({ query }) => ({ query, hits: [answer] }),
  });

const toolEvents = (events: readonly GhostlightEvent[]) =>
  events.filter((event): event is Extract<GhostlightEvent, { type: 'tool-start' | 'tool-stop' }> => event.type === 'tool-start' || event.type === 'tool-stop');

describe('tool registry ids (C.17)', () => {
  it('accepts dotted ids and rejects ids that do not start with a letter', () => {
    const registry = createToolRegistry({ 'atlas.search': search('a'), lookup: lookupTool() });
    expect(registry.ids()).toEqual(['atlas.search', 'lookup']);
    for (const bad of ['1tool', '-x', '.hidden', 'has space', 'a/b', '']) {
      expect(() => registry.register(bad, lookupTool())).toThrow(ConfigurationError);
    }
    expect(() => registry.register('1tool', lookupTool())).toThrow('Tool id must match [a-zA-Z][a-zA-Z0-9_.-]*: 1tool');
    expect(registry.ids()).toEqual(['atlas.search', 'lookup']);
  });

  it('gives dotted and long ids provider-safe aliases and rejects alias collisions', () => {
    expect(toolAlias('lookup')).toBe('lookup');
    expect(toolAlias('atlas.search')).toBe('atlas__search');
    const long = `crm.${'accounts.'.repeat(8)}find`;
    const alias = toolAlias(long);
    expect(alias).toHaveLength(64);
    expect(alias).toMatch(/^crm__accounts__[a-zA-Z0-9_-]+_[a-f0-9]{12}$/);
    expect(toolAlias(long)).toBe(alias);

    const registry = createToolRegistry({ 'a.b': lookupTool() });
    expect(registry.get('a.b')?.name).toBe('a__b');
    expect(() => registry.register('a__b', lookupTool())).toThrow('Tool ids "a.b" and "a__b" map to "a__b"');
    expect(registry.has('a__b')).toBe(false);
  });
});

describe('tool registry entries are immutable (C.18)', () => {
  it('throws when an id is registered again with a different descriptor, and still accepts new ids', () => {
    const registry = createToolRegistry({ lookup: lookupTool() });
    expect(() => registry.register('lookup', lookupTool({ description: 'Something else.' }))).toThrow(
      'Tool lookup is already registered with a different descriptor',
    );
    expect(() => registry.register('lookup', lookupTool({ input: v.strictObject({ topic: v.number() }) }))).toThrow(ConfigurationError);
    expect(() => registry.register('lookup', lookupTool({ output: v.object({ answer: v.string() }) }))).toThrow(ConfigurationError);
    // The same descriptor is a no-op: the first registration stays.
    const first = registry.get('lookup');
    registry.register('lookup', lookupTool({ answer: 'different implementation' }));
    expect(registry.get('lookup')).toBe(first);
    registry.register('faq.refunds', lookupTool());
    expect(registry.ids()).toEqual(['lookup', 'faq.refunds']);
  });

  it('accepts AI SDK tool values and Ghostlight tools alike', () => {
    const registry = createToolRegistry({ search: search('x'), lookup: lookupTool() });
    expect(registry.get('search')).toMatchObject({ name: 'search', id: 'search', description: 'Search the knowledge base.' });
    expect(() => registry.register('odd', { description: 'not a tool' } as never)).toThrow(ConfigurationError);
  });
});

describe('attaching MCP tools (C.19)', () => {
  it('registers <prefix>.<name>, and a collision throws at registration time with nothing registered', () => {
    const registry = createToolRegistry({ lookup: lookupTool() });
    expect(registry.attachMcpTools({ search: search('atlas'), fetch: search('atlas fetch') }, { prefix: 'atlas' })).toEqual([
      'atlas.search',
      'atlas.fetch',
    ]);
    expect(registry.get('atlas.search')?.name).toBe('atlas__search');

    registry.attachMcpTools({ search: search('one') });
    expect(() => registry.attachMcpTools({ other: search('two'), search: search('two') })).toThrow('Tool id collision: search');
    expect(registry.has('other')).toBe(false);
    expect(() => registry.attachMcpTools({ search: search('again') }, { prefix: 'atlas' })).toThrow('Tool id collision: atlas.search');
    expect(() => registry.attachMcpTools({ x: search('x') }, { prefix: '9bad' })).toThrow(ConfigurationError);
  });

  it('accepts an empty server and Ghostlight tool arrays, normalising names to ids', () => {
    const registry = createToolRegistry();
    expect(registry.attachMcpTools({}, { prefix: 'empty' })).toEqual([]);
    expect(registry.attachMcpTools([lookupTool()], { prefix: 'docs' })).toEqual(['docs.lookup']);
    expect(registry.attachMcpTools({ 'files/read': search('f') }, { prefix: 'fs' })).toEqual(['fs.files_read']);
  });
});

describe('agents take tools by id from the run registry (C.20)', () => {
  it('fails with MissingToolError before anything runs', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const agent = defineAgent({ name: 'planner', model, tools: ['lookup', 'atlas.search'] });
    const registry = createToolRegistry({ lookup: lookupTool() });
    const stream = agent.stream('Go', { toolRegistry: registry });
    await expect(stream.run).rejects.toSatisfy((error: unknown) => MissingToolError.isInstance(error) && error.toolId === 'atlas.search');
    expect(model.calls).toHaveLength(0);
    const events: GhostlightEvent[] = [];
    await expect(async () => {
      for await (const event of stream) events.push(event);
    }).rejects.toThrow(MissingToolError);
    expect(events.some((event) => event.type === 'run-start')).toBe(false);

    await expect(agent.ask('Go')).rejects.toThrow('Agent planner names tool lookup, but the run has no tool registry');
    expect(ConfigurationError.isInstance(await agent.ask('Go').catch((error: unknown) => error))).toBe(true);
  });

  it('resolves ids per run, shows the model aliases, and reports ids in events and results', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'atlas__search', input: { query: 'refunds' } }, { id: 'c2', name: 'lookup', input: { topic: 'refunds' } }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({ name: 'support', model, tools: ['atlas.search', 'lookup'] });
    const registry = createToolRegistry({ 'atlas.search': search('Refund policy'), lookup: lookupTool() });
    const run = await agent.ask('Refunds?', { toolRegistry: registry });

    expect(run.outcome).toBe('completed');
    expect(model.calls[0]?.tools?.map((entry) => entry.name)).toEqual(['atlas__search', 'lookup']);
    expect(run.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['atlas__search', 'lookup']);
    expect(run.steps[0]?.toolResults.map((result) => result.toolName)).toEqual(['atlas.search', 'lookup']);
    expect(run.steps[0]?.toolResults[0]?.value).toEqual({ query: 'refunds', hits: ['Refund policy'] });
    const events = toolEvents(run.events);
    expect(events.filter((event) => event.type === 'tool-start').map((event) => event.toolName)).toEqual(['atlas.search', 'lookup']);
    expect(events.filter((event) => event.type === 'tool-stop').map((event) => event.toolName).sort()).toEqual(['atlas.search', 'lookup']);
    const toolMessage = model.calls[1]?.prompt.find((message) => message.role === 'tool');
    expect((toolMessage?.content as Array<{ toolName: string }>).map((part) => part.toolName)).toEqual(['atlas__search', 'lookup']);
  });

  it('lets a later registration serve a later run, and providers may name ids too', async () => {
    const registry = createToolRegistry();
    const agent = defineAgent({ name: 'later', model: scriptedModel([{ text: 'ok' }, { text: 'ok' }]), tools: [() => ['notes.read']] });
    await expect(agent.ask('1', { toolRegistry: registry })).rejects.toThrow(MissingToolError);
    registry.register('notes.read', lookupTool());
    expect((await agent.ask('2', { toolRegistry: registry })).outcome).toBe('completed');
  });
});

describe('capability snapshots (C.21)', () => {
  async function runWith(registry: ToolRegistry, snapshot: Awaited<ReturnType<ToolRegistry['snapshot']>>) {
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'lookup', input: { topic: 'refunds' } }] }, { text: 'Answered.' }]);
    const agent = defineAgent({ name: 'worker', model, tools: ['lookup'] });
    return agent.ask('Refunds?', { toolRegistry: registry, capabilitySnapshot: snapshot });
  }

  it('is plain JSON of sha256 descriptor hashes that ignore the implementation', async () => {
    const snapshot = await createToolRegistry({ lookup: lookupTool(), 'atlas.search': search('x') }).snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.version).toBe('capability-snapshot-v1');
    expect(Object.keys(snapshot.tools)).toEqual(['lookup', 'atlas.search']);
    expect(snapshot.tools.lookup).toMatch(/^sha256:[0-9a-f]{64}$/);
    const other = createToolRegistry({ lookup: lookupTool({ answer: 'new body' }) }).get('lookup')!;
    expect(await descriptorHash(other)).toBe(snapshot.tools.lookup);
    await expect(createToolRegistry().snapshot(['nope'])).rejects.toThrow(MissingToolError);
  });

  it('lets a run whose tools only changed their implementation complete', async () => {
    const snapshot = await createToolRegistry({ lookup: lookupTool() }).snapshot(['lookup']);
    const run = await runWith(createToolRegistry({ lookup: lookupTool({ answer: 'Refunds take 3 days.' }) }), snapshot);
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults[0]?.value).toEqual({ topic: 'refunds', answer: 'Refunds take 3 days.' });
  });

  it.each([
    ['description', lookupTool({ description: 'Look up anything.' })],
    ['input schema', lookupTool({ input: v.strictObject({ topic: v.string(), locale: v.optional(v.string()) }) })],
    ['output schema', lookupTool({ output: v.object({ answer: v.string() }) })],
  ])('fails the run with capability_drift when the %s changed, and returns the failed run', async (_what, changed) => {
    const snapshot = await createToolRegistry({ lookup: lookupTool() }).snapshot(['lookup']);
    let executed = false;
    const registry = createToolRegistry({
      lookup: { ...changed, execute: (...args: Parameters<typeof changed.execute>) => ((executed = true), changed.execute(...args)) },
    });
    const run = await runWith(registry, snapshot);
    expect(run.outcome).toBe('failed');
    expect(RunFailedError.isInstance(run.error)).toBe(true);
    expect(run.error).toMatchObject({ name: 'RunFailedError', causeCode: 'capability_drift', message: 'Tool lookup no longer matches the capability snapshot' });
    expect(executed).toBe(false);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-error', error: { name: 'RunFailedError' } });
    expect(run.steps).toHaveLength(0);
  });

  it('treats a registry tool missing from the snapshot as drift, and rejects a malformed snapshot', async () => {
    const snapshot = await createToolRegistry({ other: lookupTool() }).snapshot();
    const run = await runWith(createToolRegistry({ lookup: lookupTool() }), snapshot);
    expect(run.error).toMatchObject({ causeCode: 'capability_drift', message: 'Tool lookup is not in the capability snapshot' });
    await expect(runWith(createToolRegistry({ lookup: lookupTool() }), { version: 'x', tools: {} } as never)).rejects.toThrow(ConfigurationError);
  });
});

describe('registry tools through the one executor (C.22)', () => {
  it('logs calls from code with caller "code", distinguishable from the model\'s', async () => {
    // A stand-in for code mode: a control tool whose program calls a registry tool through the broker.
    let broker: Parameters<NonNullable<RunCapability['arrange']>>[0]['broker'] | undefined;
    const program = defineTool({
      name: 'exec',
      description: 'Run a program.',
      input: v.strictObject({}),
      execute: async (_input, binding) => {
        const result = await broker!.call(
          { toolCallId: `${binding.toolCallId}.1`, toolName: toolAlias('atlas.search'), input: { query: 'from code' } },
          { caller: 'code', parentToolCallId: binding.toolCallId },
        );
        return result.value;
      },
    });
    const codeMode: RunCapability = {
      version: 'run-capability-v1',
      name: 'fake-code-mode',
      arrange: (context) => {
        broker = context.broker;
        const exec = program as Tool;
        return { extraTools: [exec], tools: [...context.tools, exec], controlTools: ['exec'] };
      },
    };
    const model = scriptedModel([
      { toolCalls: [{ id: 'm1', name: 'atlas__search', input: { query: 'from model' } }] },
      { toolCalls: [{ id: 'x1', name: 'exec', input: {} }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({ name: 'coder', model, tools: ['atlas.search'], capabilities: [codeMode] });
    const run = await agent.ask('Search twice', { toolRegistry: createToolRegistry({ 'atlas.search': search('hit') }) });

    expect(run.outcome).toBe('completed');
    const starts = run.events.filter((event) => event.type === 'tool-start');
    expect(starts).toEqual([
      expect.objectContaining({ toolCallId: 'm1', toolName: 'atlas.search', caller: 'model', input: { query: 'from model' } }),
      expect.objectContaining({ toolCallId: 'x1.1', toolName: 'atlas.search', caller: 'code', parentToolCallId: 'x1' }),
    ]);
    expect(run.steps[1]?.toolResults[0]?.value).toEqual({ query: 'from code', hits: ['hit'] });
  });
});

describe('registry tools in code mode (C.22)', () => {
  it('are called by programs through the one executor, logged with caller "code" and their ids', async () => {
    const source = 'const a = await tools.atlas__search({ query: "refunds" });\nconst b = await tools.call("lookup", { topic: "returns" });\nreturn [a.hits[0], b.answer];';
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: ['atlas.search', 'lookup'], capabilities: [codeMode()] });
    const snapshot = await createToolRegistry({ 'atlas.search': search('Refund policy'), lookup: lookupTool() }).snapshot();
    const run = await agent.ask('Refunds and returns', {
      toolRegistry: createToolRegistry({ 'atlas.search': search('Refund policy'), lookup: lookupTool() }),
      capabilitySnapshot: snapshot,
    });

    expect(run.outcome).toBe('completed');
    expect(JSON.parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({ status: 'completed', value: ['Refund policy', 'Refunds take 5 days.'] });
    const starts = run.events.filter((event) => event.type === 'tool-start');
    expect(starts.map((event) => [event.toolName, event.caller, event.parentToolCallId])).toEqual([
      ['atlas.search', 'code', 'x1'],
      ['lookup', 'code', 'x1'],
    ]);
  });

  it('fail the run on capability drift when a program calls them', async () => {
    const snapshot = await createToolRegistry({ lookup: lookupTool() }).snapshot();
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source: 'return await tools.lookup({ topic: "x" });' } }] }, { text: 'never' }]);
    const agent = defineAgent({ name: 'coder', model, tools: ['lookup'], capabilities: [codeMode()] });
    const run = await agent.ask('go', { toolRegistry: createToolRegistry({ lookup: lookupTool({ description: 'Changed.' }) }), capabilitySnapshot: snapshot });
    expect(run.outcome).toBe('failed');
    expect(run.error).toMatchObject({ name: 'RunFailedError', causeCode: 'capability_drift' });
  });
});
