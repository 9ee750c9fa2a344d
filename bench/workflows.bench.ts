// Planned workflows (issue 15): the same 10-tool task three ways with scripted models — direct tool calling,
// code mode, and a pinned workflow version run (no model call) — model calls, input tokens and wall time side
// by side; the one-time cost of planning; and the gzip size of ghostlight/workflows on its own.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { build } from 'esbuild';
import { MockLanguageModelV4 } from 'ai/test';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolRegistry, defineAgent, defineTool } from 'ghostlight';
import type { Tool } from 'ghostlight';
import { codeMode } from 'ghostlight/code-mode';
import { compileWorkflow, definePlannedWorkflow, planWorkflow, runWorkflow } from 'ghostlight/workflows';
import { sourceAliases } from '../scripts/entries.mjs';
import { median, ms, sample } from './harness';
import { fanOutProgram, question, REGIONS, salesTools } from './sales-task';
import type { BenchSection } from './harness';

const reduceProgram = `export async function run({ input }) {
  const totals = Object.entries(input).map(([region, rows]) => ({ region, revenue: rows.reduce((sum, row) => sum + row.revenue, 0) }));
  totals.sort((a, b) => b.revenue - a.revenue);
  return { best: totals[0], runnerUp: totals[1] };
}`;
/** The pinned plan: ten tool.call steps at once, then one code.run that reduces their rows. */
const plan = {
  version: 'workflow-plan-v1',
  steps: [
    ...REGIONS.map((region) => ({ id: region, uses: 'tool.call', with: { tool: `sales_${region}` }, input: { days: 30 } })),
    {
      id: 'rank',
      uses: 'code.run',
      needs: REGIONS,
      with: { entrypoint: 'rank.js', files: { 'rank.js': { content: reduceProgram } } },
      input: Object.fromEntries(REGIONS.map((region) => [region, `{{ steps.${region}.output }}`])),
    },
  ],
  output: '{{ steps.rank.output }}',
};

type Turn = { toolCalls?: Array<{ name: string; input: unknown }>; text?: string };
const tokensOf = (options: LanguageModelV4CallOptions) => Math.ceil(JSON.stringify({ prompt: options.prompt, tools: options.tools ?? [] }).length / 4);
const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

/** A scripted streaming model counting the input tokens of every call the same way (prompt and tools as JSON, 4 bytes a token). */
function countingModel(turns: Turn[]) {
  const calls: number[] = [];
  let index = 0;
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      calls.push(tokensOf(options));
      const turn = turns[index++] ?? { text: 'done' };
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      (turn.toolCalls ?? []).forEach((call, callIndex) => parts.push({ type: 'tool-call', toolCallId: `c${index}-${callIndex}`, toolName: call.name, input: JSON.stringify(call.input) }));
      if (turn.text) parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
      const finish = turn.toolCalls?.length ? 'tool-calls' : 'stop';
      parts.push({ type: 'finish', finishReason: { unified: finish, raw: finish }, usage });
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
  return { model, calls };
}

/** A scripted planner answering with the pinned plan, counting its input tokens the same way. */
function countingPlanner() {
  const calls: number[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      calls.push(tokensOf(options));
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: JSON.stringify({ plan: JSON.stringify(plan) }) },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
  return { model, calls };
}

const RUNS = 20;
const ROUNDS = 5;

async function threeWays(): Promise<string> {
  const answer = { text: 'The islands region had the highest revenue.' };
  const registry = createToolRegistry(Object.fromEntries(salesTools.map((tool) => [tool.name, tool])));
  const workflow = definePlannedWorkflow({ name: 'best-region', description: question, tools: REGIONS.map((region) => `sales_${region}`) });
  const planner = countingPlanner();
  const version = await planWorkflow(workflow, { model: planner.model, tools: registry, strategy: 'provider' });
  const check = await runWorkflow(version, {}, { tools: registry });
  if (check.status !== 'completed') throw new Error(`pinned run: ${String(check.error)}`);
  const best = (check.output as { best: { region: string } }).best.region;

  const agentSide = (codeModeOn: boolean) => async () => {
    const turns = codeModeOn
      ? [{ toolCalls: [{ name: 'exec', input: { source: fanOutProgram } }] }, answer]
      : [{ toolCalls: salesTools.map((tool) => ({ name: tool.name, input: { days: 30 } })) }, answer];
    const { model, calls } = countingModel(turns);
    const run = await defineAgent({ name: 'sales', model, tools: salesTools, capabilities: codeModeOn ? [codeMode()] : [] }).ask(question);
    if (run.outcome !== 'completed') throw new Error(`agent: ${run.outcome}`);
    return { modelCalls: calls.length, tokens: calls.reduce((a, b) => a + b, 0), toolCalls: run.events.filter((event) => event.type === 'tool-stop').length };
  };
  const pinned = async () => {
    const run = await runWorkflow(version, {}, { tools: registry });
    if (run.status !== 'completed') throw new Error('pinned run failed');
    return { modelCalls: 0, tokens: 0, toolCalls: run.steps.reduce((sum, step) => sum + step.toolCalls.length, 0) };
  };
  const sides = [
    { name: 'direct tool calling (all 10 calls in one parallel batch)', task: agentSide(false) },
    { name: 'code mode (one `exec` with `Promise.all`)', task: agentSide(true) },
    { name: 'pinned workflow version (10 `tool.call` steps at once, then one `code.run`)', task: pinned },
  ];
  const facts: Array<{ modelCalls: number; tokens: number; toolCalls: number }> = [];
  for (const side of sides) facts.push(await side.task());
  const times: number[][] = sides.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, side] of sides.entries()) {
      times[index]!.push(median(await sample(async () => { for (let run = 0; run < RUNS; run++) await side.task(); }, 1, 1)) / RUNS);
    }
  }
  const walls = times.map(median);
  const rows = sides.map((side, index) => `| ${side.name} | ${facts[index]!.modelCalls} | ${facts[index]!.toolCalls} | ${facts[index]!.tokens.toLocaleString('en-US')} | ${ms(walls[index]!)} | ${(walls[index]! / walls[2]!).toFixed(2)}× |`);
  return `Task: "${question}" over the same 10 tools as the code-mode section (\`sales_<region>\`, 30 rows each),
scripted \`MockLanguageModelV4\` models; input tokens of every model call counted the same way (prompt and tool
definitions as JSON, 4 bytes a token). Wall time: per task, median of ${ROUNDS} rounds of ${RUNS} runs, the three
sides alternating each round (scripted models answer at once, so this is Ghostlight's own overhead, not a
provider's latency). All three answer ${best}.

| way | model calls | tool calls | input tokens | wall time per task | vs pinned run |
|---|---|---|---|---|---|
${rows.join('\n')}

Planning the version is paid once: **${planner.calls.length} planner call, ${planner.calls.reduce((a, b) => a + b, 0).toLocaleString('en-US')} input tokens**
(the workflow, its tools' descriptions and schemas, and the plan format's JSON Schema). After that every run of
the version makes no model call; the agent ways pay their model calls and tokens on every task. With real
providers each model call adds its latency (typically 0.5–5 s) to the agent rows, which the scripted models hide.
Most of the pinned run's own time is its \`code.run\` step's fresh QuickJS context (see the code-mode section's
per-program overhead); direct tool calling is the cheapest in CPU here only because its two model calls cost nothing.`;
}

async function size(): Promise<string> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const aliases = sourceAliases(root, 'workerd') as Record<string, string>;
  const bundle = async (source: string) => {
    const outcome = await build({
      stdin: { contents: source, resolveDir: root, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      external: ['node:*', 'cloudflare:*'],
      loader: { '.wasm': 'file' },
      outdir: join(root, 'node_modules', '.cache', 'workflows-size'),
      write: false,
      logLevel: 'silent',
      plugins: [{ name: 'sources', setup(builder) { builder.onResolve({ filter: /^(ghostlight(\/.*)?|#.*)$/ }, (args) => (aliases[args.path] ? { path: aliases[args.path] } : undefined)); } }],
    });
    const js = outcome.outputFiles.filter((file) => file.path.endsWith('.js'));
    return js.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0);
  };
  const alone = await bundle("export { runWorkflow, planWorkflow, compileWorkflow, definePlannedWorkflow, loadWorkflowVersion, mcpGateway, workflowPlanJsonSchema } from 'ghostlight/workflows';");
  const base = "export { defineAgent, defineTool, createToolRegistry } from 'ghostlight'; export { codeMode } from 'ghostlight/code-mode'; export { mcpToolset } from 'ghostlight/mcp';";
  const without = await bundle(base);
  const withWorkflows = await bundle(`${base} export { runWorkflow, planWorkflow, compileWorkflow, definePlannedWorkflow, loadWorkflowVersion, mcpGateway, workflowPlanJsonSchema } from 'ghostlight/workflows';`);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  return `**Bundle cost** (esbuild, minified, gzip -9, workerd conditions, from the sources; the QuickJS \`.wasm\` is a
separate module and not counted): \`ghostlight/workflows\` on its own (with the core, code mode, MCP client and
\`@valibot/to-json-schema\` it pulls in) is **${kib(alone)}** gzip; over a program that already has the core,
code mode and MCP (${kib(without)}) it adds **${kib(withWorkflows - without)}**. It is not in the Full Worker program.`;
}

/** The workflows section of BENCHMARKS.md. */
export async function bench(): Promise<BenchSection> {
  return { key: 'workflows', title: 'Planned workflows (issue 15)', markdown: `${await threeWays()}\n\n${await size()}` };
}
