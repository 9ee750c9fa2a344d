// What the assemblies cost (issue 14): a 20-node Graph and a 10-handoff Swarm with scripted models, against the same
// compositions written by hand with `agent.ask` calls, in the same process; and the gzip size of ghostlight/assemblies
// on top of the minimal Worker. Scripted models without delays, so the figures are the framework's own work.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MockLanguageModelV4 } from 'ai/test';
import { defineAgent } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { defineGraph, defineSwarm, HANDOFF_TOOL_NAME } from 'ghostlight/assemblies';
import { sourceAliases } from '../scripts/entries.mjs';
import { collectGarbage, median, ms } from './harness';
import type { BenchSection } from './harness';

const NODES = 20;
const HANDOFFS = 10;
const ROUNDS = 20;
const RUNS_PER_SAMPLE = 3;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function model(turn: (call: LanguageModelV4CallOptions) => LanguageModelV4StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (call) => {
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...turn(call)];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
const text = (value: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: value },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];
const call = (name: string, input: unknown): LanguageModelV4StreamPart[] => [
  { type: 'tool-call', toolCallId: 'c1', toolName: name, input: JSON.stringify(input) },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

// The graph: a chain of 20 nodes, each one model turn; every node gets the default downstream input.
const nodeAgents = Array.from({ length: NODES }, (_, index) => defineAgent({ name: `n${index}`, model: model(() => text(`result ${index}`)) }));
const graph = defineGraph({
  name: 'chain',
  nodes: Object.fromEntries(nodeAgents.map((agent) => [agent.name, agent])),
  start: 'n0',
  edges: nodeAgents.slice(1).map((agent, index) => ({ from: `n${index}`, to: agent.name })),
  finish: `n${NODES - 1}`,
});

async function graphRun(includeAgentEvents = true): Promise<void> {
  const run = await graph.ask('Start the chain', { includeAgentEvents });
  if (run.response !== `result ${NODES - 1}` || run.trajectory.steps.length !== NODES) throw new Error(`unexpected graph run: ${run.outcome}`);
}

/** The same chain by hand: each agent asked in turn with the original task and the previous node's output. */
async function graphByHand(): Promise<void> {
  const task = 'Start the chain';
  let input = task;
  let response = '';
  for (const [index, agent] of nodeAgents.entries()) {
    const run = await agent.ask(input);
    if (run.outcome !== 'completed') throw new Error('unexpected hand-written run');
    response = run.response;
    input = `Original Task:\n${task}\n\nInputs from previous nodes:\n\nFrom n${index}:\n${run.response}`;
  }
  if (response !== `result ${NODES - 1}`) throw new Error('unexpected hand-written result');
}

// The swarm: 11 members in a line, each handing off to the next (10 handoffs), the last one answers.
const members = Array.from({ length: HANDOFFS + 1 }, (_, index) =>
  defineAgent({
    name: `m${index}`,
    model: model(() => (index < HANDOFFS ? call(HANDOFF_TOOL_NAME, { agent_id: `m${index + 1}`, message: `over to m${index + 1}` }) : text('answered'))),
  }),
);
const swarm = defineSwarm({
  name: 'line',
  members: Object.fromEntries(members.map((agent) => [agent.name, agent])),
  start: 'm0',
  handoffs: Object.fromEntries(members.slice(0, -1).map((agent, index) => [agent.name, [`m${index + 1}`]])),
});

async function swarmRun(includeAgentEvents = true): Promise<void> {
  const run = await swarm.ask('Route this', { includeAgentEvents });
  if (run.response !== 'answered' || run.trajectory.steps.length !== HANDOFFS + 1) throw new Error(`unexpected swarm run: ${run.outcome} ${run.errorInfo?.message}`);
}

/** The same line by hand: each member answers with its handoff as JSON text, the application parses it and asks the next. */
const handMembers: Agent[] = Array.from({ length: HANDOFFS + 1 }, (_, index) =>
  defineAgent({ name: `h${index}`, model: model(() => text(index < HANDOFFS ? JSON.stringify({ agent_id: `h${index + 1}`, message: `over to h${index + 1}` }) : 'answered')) }),
);

async function swarmByHand(): Promise<void> {
  let input = 'Route this';
  let current = 0;
  for (;;) {
    const run = await handMembers[current]!.ask(input);
    if (run.outcome !== 'completed') throw new Error('unexpected hand-written run');
    if (!run.response.startsWith('{')) break;
    const handoff = JSON.parse(run.response) as { agent_id: string; message: string };
    input = `Handoff from h${current}:\n${handoff.message}`;
    current = Number(handoff.agent_id.slice(1));
  }
}

async function alternate(tasks: ReadonlyArray<() => Promise<void>>): Promise<number[][]> {
  for (const task of tasks) for (let index = 0; index < 3; index++) await task();
  const samples = tasks.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, task] of tasks.entries()) {
      collectGarbage();
      const started = performance.now();
      for (let run = 0; run < RUNS_PER_SAMPLE; run++) await task();
      samples[index]!.push((performance.now() - started) / RUNS_PER_SAMPLE);
    }
  }
  return samples;
}

/** Gzip KiB of a program bundled from the sources the way the size budgets bundle a Worker. */
async function gzipKiB(contents: string): Promise<number> {
  const outcome = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    alias: sourceAliases(root, 'workerd'),
    tsconfigRaw: {},
    write: false,
    logLevel: 'silent',
  });
  return outcome.outputFiles.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0) / 1024;
}

const MINIMAL = `import { defineAgent } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
export default { fetch(request, env) { const agent = defineAgent({ name: 'support', model: env.MODEL }); return createAgentApp({ agents: [agent], auth: 'none' }).fetch(request); } };`;
const WITH_ASSEMBLIES = `import { defineAgent } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import { defineGraph, defineSwarm, defineWorkflow, graphBuilder } from 'ghostlight/assemblies';
export default { fetch(request, env) {
  const a = defineAgent({ name: 'a', model: env.MODEL }); const b = defineAgent({ name: 'b', model: env.MODEL });
  const graph = defineGraph({ name: 'g', nodes: { a, b }, start: 'a', edges: [{ from: 'a', to: 'b' }], finish: 'b' });
  const swarm = defineSwarm({ name: 's', members: { a, b }, start: 'a' });
  const flow = defineWorkflow({ name: 'w', perform: (w) => w.invoke(b) });
  return createAgentApp({ agents: [graph, swarm, flow, graphBuilder('x')], auth: 'none' }).fetch(request);
} };`;

export async function bench(): Promise<BenchSection> {
  const variants = [
    [`Graph, ${NODES} nodes in a chain`, () => graphRun()],
    [`the same ${NODES} \`agent.ask\` calls by hand`, graphByHand],
    [`Swarm, ${HANDOFFS} handoffs (${HANDOFFS + 1} members)`, () => swarmRun()],
    [`the same ${HANDOFFS + 1} \`agent.ask\` calls by hand`, swarmByHand],
    ['Graph with `includeAgentEvents: false`', () => graphRun(false)],
    ['Swarm with `includeAgentEvents: false`', () => swarmRun(false)],
  ] as const;
  const samples = await alternate(variants.map(([, task]) => task));
  const measured = variants.map(([label], index): [string, number, number] => [label, median(samples[index]!), Math.min(...samples[index]!)]);
  const [graphMs, graphHand, swarmMs, swarmHand, graphQuiet, swarmQuiet] = measured.map(([, value]) => value) as [number, number, number, number, number, number];
  const [graphMin, graphHandMin, swarmMin, swarmHandMin] = measured.map(([, , min]) => min) as [number, number, number, number];
  const rows = measured.map(([label, value, min]) => `| ${label} | ${ms(value)} | ${ms(min)} |`).join('\n');
  const minimal = await gzipKiB(MINIMAL);
  const withAssemblies = await gzipKiB(WITH_ASSEMBLIES);
  return {
    key: 'assemblies',
    title: 'Assemblies: Graph and Swarm vs hand-written `agent.ask` (issue 14)',
    markdown: `Each participant is a scripted agent answering in one model turn (a swarm member's turn is its \`handoff_to_agent\` call; the
hand-written swarm parses a JSON handoff from the answer instead). The hand-written versions build the same inputs
("Original Task:…", "Handoff from…"). ${ROUNDS} alternating samples of each, each the mean of ${RUNS_PER_SAMPLE} runs (garbage collected before each sample).

| what | median | min |
|---|---|---|
${rows}

- Graph overhead ratio (assembly / by hand): **${(graphMs / graphHand).toFixed(2)}×** (medians; **${(graphMin / graphHandMin).toFixed(2)}×** from the minimums), **${ms((graphMs - graphHand) / NODES)}** per node (step records, policies, event routing,
  frozen routing state, the assembly's own event log).
- Swarm overhead ratio: **${(swarmMs / swarmHand).toFixed(2)}×** (medians; **${(swarmMin / swarmHandMin).toFixed(2)}×** from the minimums), **${ms((swarmMs - swarmHand) / (HANDOFFS + 1))}** per member step (each member runs its \`handoff_to_agent\` call,
  its run ends at the next model boundary, and its events are buffered until it is known not to hand off).
- Without the \`agent-stream\` wrappers (every participant event copied, frozen and written with its source; on by default):
  graph **${(graphQuiet / graphHand).toFixed(2)}×**, swarm **${(swarmQuiet / swarmHand).toFixed(2)}×** (medians).
- Bundle cost: the minimal Worker (\`defineAgent\` + \`createAgentApp\`, bundled from the sources as the size budgets bundle) is
  **${minimal.toFixed(1)} KiB** gzip; with Workflow, Swarm, Graph and the builder in use it is **${withAssemblies.toFixed(1)} KiB**:
  \`ghostlight/assemblies\` alone adds **${(withAssemblies - minimal).toFixed(1)} KiB** gzip. It is not part of the Full Worker program.
- Load average at the end of the run: ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min); on a shared machine the absolute
  times and the ratios move between runs (the per-participant work being measured is tens of microseconds).`,
  };
}
