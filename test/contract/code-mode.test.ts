import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent, defineTool, ProtocolError, ToolError } from 'ghostlight';
import { CodeLimitError, runCode, codeMode, defaultCodeEngine } from 'ghostlight/code-mode';
import type { GhostlightEvent } from 'ghostlight';
import { CodeCatalog } from '../../src/code-mode/code-catalog';
import { resolveCodeLimits } from '../../src/code-mode/code-limits';
import { CodeSession } from '../../src/code-mode/code-session';
import { echoTool, gateTool, lookupTool } from '../support/code-tools';
import { scriptedModel } from '../support/scripted-model';

const engine = defaultCodeEngine();

function parse(content: string | undefined): Record<string, unknown> {
  return JSON.parse(content ?? 'null') as Record<string, unknown>;
}

/** A session over plain tools, calling them directly (the agent wiring is tested separately). */
function session(tools: Parameters<typeof runCode>[1] extends infer O ? NonNullable<O extends { tools?: infer T } ? T : never> : never, limits = {}) {
  const list = tools as readonly ReturnType<typeof defineTool>[];
  const byName = new Map(list.map((tool) => [tool.name, tool]));
  return new CodeSession({
    engine,
    catalog: new CodeCatalog(list),
    limits: resolveCodeLimits(limits),
    dispatch: async (entry, args, call) => {
      const value = await byName.get(entry.toolName)!.execute(args as never, {} as never);
      return { toolCallId: call.id, toolName: entry.toolName, input: args, status: 'success', value, content: JSON.stringify(value), artifacts: [], caller: 'code' };
    },
  });
}

describe('code mode in an agent', () => {
  it('offers exactly exec, wait, stop and the except tools; the rest are declared in the instructions', async () => {
    const confirm = defineTool({ name: 'confirm', description: 'Confirm with the user.', input: { type: 'object', properties: {} }, execute: () => 'yes' });
    const model = scriptedModel([{ text: 'ok' }]);
    const agent = defineAgent({ name: 'coder', model, tools: [lookupTool, confirm], capabilities: [codeMode({ except: ['confirm'], engine })] });
    const run = await agent.ask('hi');
    expect(run.outcome).toBe('completed');
    expect(model.calls[0]?.tools?.map((tool) => tool.name).sort()).toEqual(['confirm', 'exec', 'stop', 'wait']);
    const system = model.calls[0]?.prompt[0];
    expect(system?.role).toBe('system');
    const text = String(system?.content);
    expect(text).toContain('Available tool methods:');
    expect(text).toContain('declare const tools: {');
    expect(text).toContain('/** Look up an item by id. */');
    expect(text).toContain('lookup(args: {');
    expect(text).toContain('): Promise<{');
    expect(text).not.toContain('confirm(args');
  });

  it('solves a multi-tool task in one exec with Promise.all; brokered calls are events with caller "code"', async () => {
    const source = 'const items = await Promise.all([1, 2, 3].map((id) => tools.lookup({ id })));\ntext(items.length + " items");\nreturn items.map((item) => item.name);';
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: [lookupTool], capabilities: [codeMode({ engine })] });
    const run = await agent.ask('names of items 1-3');
    expect(run.outcome).toBe('completed');
    const result = run.steps[0]!.toolResults[0]!;
    expect(parse(result.content)).toEqual({ status: 'completed', output: '3 items', value: ['item 1', 'item 2', 'item 3'] });
    const toolEvents = run.events.filter((event) => event.type === 'tool-start' || event.type === 'tool-stop') as Array<GhostlightEvent & { caller?: string; toolName?: string; parentToolCallId?: string }>;
    expect(toolEvents.map((event) => event.toolName)).not.toContain('exec');
    expect(toolEvents).toHaveLength(6);
    expect(toolEvents.every((event) => event.caller === 'code' && event.parentToolCallId === 'x1' && event.toolName === 'lookup')).toBe(true);
  });

  it('records each program: program-start with its source before its calls, program-observe with the observation', async () => {
    const source = 'text("looking");\nreturn (await tools.lookup({ id: 7 })).name;';
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const run = await defineAgent({ name: 'coder', model, tools: [lookupTool], capabilities: [codeMode({ engine })] }).ask('item 7');
    const types = run.events.map((event) => event.type);
    expect(types.indexOf('program-start')).toBeLessThan(types.indexOf('tool-start'));
    expect(types.indexOf('tool-stop')).toBeLessThan(types.indexOf('program-observe'));
    expect(run.events.find((event) => event.type === 'program-start')).toMatchObject({ programId: 'p1', source });
    expect(run.events.find((event) => event.type === 'program-observe')).toMatchObject({ programId: 'p1', via: 'exec', status: 'completed', output: 'looking', value: 'item 7' });
  });

  it('counts brokered calls toward maxToolCalls but not exec (max 1 + exec + confirm fails the run)', async () => {
    const confirm = defineTool({ name: 'confirm', description: 'Confirm.', input: { type: 'object' }, execute: () => 'done' });
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', input: { source: 'return (await tools.lookup({ id: 1 })).name;' } }] },
      { toolCalls: [{ name: 'confirm', input: {} }] },
      { text: 'never' },
    ]);
    const agent = defineAgent({ name: 'budget', model, tools: [lookupTool, confirm], limits: { maxToolCalls: 1 }, capabilities: [codeMode({ except: ['confirm'], engine })] });
    const run = await agent.ask('go');
    expect(parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({ status: 'completed', value: 'item 1' });
    expect(run.outcome).toBe('failed');
    expect(ProtocolError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).message).toContain('maximum tool calls');
  });

  it('applies hooks to brokered calls: a beforeTool cancel rejects inside the program', async () => {
    const source = 'try { await tools.lookup({ id: 1 }); } catch (error) { return "caught: " + error.message; }';
    const model = scriptedModel([{ toolCalls: [{ name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const seen: string[] = [];
    const agent = defineAgent({
      name: 'hooked',
      model,
      tools: [lookupTool],
      hooks: {
        beforeTool: ({ toolCall, binding }) => {
          seen.push(`${toolCall.toolName}:${binding.caller}`);
          return toolCall.toolName === 'lookup' ? { cancel: 'not allowed right now' } : undefined;
        },
      },
      capabilities: [codeMode({ engine })],
    });
    const run = await agent.ask('go');
    expect(seen).toEqual(['exec:model', 'lookup:code']);
    expect(parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({ status: 'completed', value: 'caught: not allowed right now' });
  });

  it('reports still_working and lets wait return only the output produced since', async () => {
    const gate = gateTool();
    const source = 'text("before"); await tools.gate({}); text("after"); return 42;';
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', input: { source } }] },
      { toolCalls: [{ name: 'wait', input: {} }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({
      name: 'patient',
      model,
      tools: [gate.tool],
      hooks: { beforeModel: ({ turn }) => void (turn === 2 && gate.release()) },
      capabilities: [codeMode({ engine, limits: { observeMs: 150 } })],
    });
    const run = await agent.ask('go');
    expect(parse(run.steps[0]!.toolResults[0]!.content)).toEqual({ status: 'still_working', output: 'before' });
    expect(parse(run.steps[1]!.toolResults[0]!.content)).toEqual({ status: 'completed', output: '\nafter', value: 42 });
    expect(run.outcome).toBe('completed');
  });

  it('rejects tool names that normalise to the same identifier or to a control', async () => {
    const make = (name: string) => defineTool({ name, description: 'x', input: { type: 'object' }, execute: () => 1 });
    const model = scriptedModel([{ text: 'never' }]);
    await expect(defineAgent({ name: 'a', model, tools: [make('one-name'), make('one_name')], capabilities: [codeMode({ engine })] }).ask('x')).rejects.toThrow(
      'Code-mode tool names "one-name" and "one_name" both normalize to "one_name"',
    );
    const error = await defineAgent({ name: 'b', model, tools: [make('exec')], capabilities: [codeMode({ engine })] }).ask('x').catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
  });

  it('cancels the program with the run and closes the session', async () => {
    const gate = gateTool();
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'exec', input: { source: 'await tools.gate({}); return 1;' } }] }, { text: 'never' }]);
    const agent = defineAgent({ name: 'cancelled', model, tools: [gate.tool], capabilities: [codeMode({ engine })] });
    const running = agent.ask('go', { signal: controller.signal });
    setTimeout(() => {
      controller.abort();
      gate.release();
    }, 50);
    const run = await running;
    expect(run.outcome).toBe('cancelled');
    expect(run.events.at(-1)?.type).toBe('run-cancel');
  });
});

describe('the code-mode session', () => {
  it('rejects a second control call while one is active, exec while a program runs, and wait/stop with none', async () => {
    const gate = gateTool();
    const codeSession = session([gate.tool], { observeMs: 100 });
    await expect(codeSession.wait()).rejects.toThrow('There is no active JavaScript program');
    await expect(codeSession.stop()).rejects.toThrow(ToolError);
    const first = codeSession.exec('await tools.gate({}); return "late";', 'e1');
    await expect(codeSession.wait()).rejects.toThrow('a code-mode control call is already active');
    expect(await first).toMatchObject({ status: 'still_working' });
    await expect(codeSession.exec('return 1', 'e2')).rejects.toThrow('Wait for or stop the active JavaScript program before starting another');
    gate.release();
    expect(await codeSession.wait()).toMatchObject({ status: 'completed', value: 'late' });
    await codeSession.close();
  });

  it('stops a running program and reports terminated with its remaining output', async () => {
    const codeSession = session([], { observeMs: 1_000 });
    expect(await codeSession.exec('text("started"); await new Promise(() => {});', 'e1')).toMatchObject({ status: 'still_working', output: 'started' });
    expect(await codeSession.stop()).toMatchObject({ status: 'terminated', output: '' });
    expect(await codeSession.exec('return "next"', 'e2')).toMatchObject({ status: 'completed', value: 'next' });
    await codeSession.close();
  });

  it('cuts an error to the observation token budget, as it cuts output', async () => {
    const codeSession = session([]);
    const observation = await codeSession.exec('text("y".repeat(1000)); throw new Error("x".repeat(100000));', 'e1', { maxOutputTokens: 10 });
    expect(observation.status).toBe('error');
    expect(observation.output.length).toBeLessThan(100);
    expect(new TextEncoder().encode(observation.error).length).toBeLessThan(100);
    expect(observation.error).toMatch(/^Error: xxx.*tokens truncated/s);
  });

  it('gives each exec a fresh context', async () => {
    const codeSession = session([]);
    expect(await codeSession.exec('globalThis.transient = "set"; text(transient);', 'e1')).toMatchObject({ output: 'set' });
    expect(await codeSession.exec('text(typeof transient);', 'e2')).toMatchObject({ output: 'undefined' });
    await codeSession.close();
  });

  it('terminates a program past its wall limit even if nobody observes it', async () => {
    const codeSession = session([], { observeMs: 20, wallMs: 80 });
    expect(await codeSession.exec('await new Promise(() => {});', 'e1')).toMatchObject({ status: 'still_working' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const error = await codeSession.wait().catch((caught: unknown) => caught);
    expect(CodeLimitError.isInstance(error) && error.limit).toBe('wall');
    expect((error as Error).message).toBe('code-mode program timed out');
    await codeSession.close();
  });

  it('refuses oversized source and output and too many programs', async () => {
    const codeSession = session([], { sourceBytes: 100, outputBytes: 50, programs: 3 });
    await expect(codeSession.exec(`return "${'x'.repeat(200)}"`, 'e1')).rejects.toThrow('code-mode source exceeds the limit');
    await expect(codeSession.exec('text("y".repeat(80))', 'e2')).rejects.toThrow('code-mode output exceeded the limit');
    expect(await codeSession.exec('return 1', 'e3')).toMatchObject({ status: 'completed', value: 1 });
    const error = await codeSession.exec('return 2', 'e4').catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('code-mode program limit exceeded');
    await codeSession.close();
  });

  it('truncates an observation to max_output_tokens', async () => {
    const codeSession = session([]);
    const result = await codeSession.exec('text("abcdefghij")', 'e1', { maxOutputTokens: 1 });
    expect(result.output).toBe('ab…2 tokens truncated…ij');
    await codeSession.close();
  });
});

describe('programs', () => {
  it('run tool calls in parallel, drain unawaited calls, and surface tool errors as catchable Errors', async () => {
    const { tool, stats } = echoTool('echo', 20);
    const failing = defineTool({ name: 'failing', description: 'Fails.', input: { type: 'object' }, execute: () => { throw new ToolError('expected failure'); } });
    const result = await runCode(
      `const all = await Promise.all([1, 2, 3, 4].map((n) => tools.echo({ n })));
       tools.echo({ n: "unawaited" });
       let message;
       try { await tools.failing({}); } catch (error) { message = error instanceof Error && error.message; }
       return { all: all.map((item) => item.n), message };`,
      { tools: [tool, failing], engine },
    );
    expect(result.value).toEqual({ all: [1, 2, 3, 4], message: 'expected failure' });
    expect(stats.maxActive).toBeGreaterThan(1);
    expect(stats.calls).toBe(5);
  });

  it('see no host globals', async () => {
    const { value } = await runCode(
      'return [fetch, console, WebAssembly, ArrayBuffer, Uint8Array, Float64Array, DataView, Atomics, SharedArrayBuffer, process, require].map((x) => typeof x);',
      { engine },
    ).catch(async () => runCode('return ["fetch","console","WebAssembly","ArrayBuffer","Uint8Array","Float64Array","DataView","Atomics","SharedArrayBuffer","process","require"].map((name) => typeof globalThis[name]);', { engine }));
    expect(value).toEqual(Array(11).fill('undefined'));
  });

  it('expose a tool named then as tools._then and keep tools unthenable', async () => {
    const then = defineTool({ name: 'then', description: 'Then.', input: { type: 'object' }, execute: () => 'then-result' });
    const { value } = await runCode('const awaited = await tools; return [typeof tools.then, awaited === tools, await tools._then({}), await tools.call("then", {})];', { tools: [then], engine });
    expect(value).toEqual(['undefined', true, 'then-result', 'then-result']);
  });

  it('run the Little Workflow code.run style with input, and TypeScript', async () => {
    const fetchCandidates = defineTool({
      name: 'fetchCandidates',
      description: 'Fetch candidates for a job.',
      input: { type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'] },
      execute: () => ({ candidates: [{ id: 'a', score: 0.9 }, { id: 'b', score: 0.5 }, { id: 'c', score: 0.95 }] }),
    });
    const lookupBackgroundCheck = defineTool({
      name: 'lookupBackgroundCheck',
      description: 'Background check.',
      input: { type: 'object', properties: { candidateId: { type: 'string' } }, required: ['candidateId'] },
      execute: (input) => ({ candidateId: (input as { candidateId: string }).candidateId, clear: true }),
    });
    const source = `interface Candidate { id: string; score: number }
export async function run({ input, tools }: { input: { jobId: string }; tools: any }) {
  const { candidates } = await tools.fetchCandidates({ jobId: input.jobId });
  const filtered = (candidates as Candidate[]).filter((c) => c.score > 0.8);
  const enriched = await Promise.all(filtered.map((c) => tools.lookupBackgroundCheck({ candidateId: c.id })));
  return { count: enriched.length, top: enriched.slice(0, 5) };
}`;
    const result = await runCode(source, { tools: [fetchCandidates, lookupBackgroundCheck], input: { jobId: 'j1' }, engine });
    expect(result.value).toEqual({ count: 2, top: [{ candidateId: 'a', clear: true }, { candidateId: 'c', clear: true }] });
    expect(result.toolCalls.map((call) => call.caller)).toEqual(['code', 'code', 'code']);
  });
});
