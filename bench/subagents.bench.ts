// What the subagent machinery costs: a lead spawns 8 sync subagents in one model response and answers, against
// running the same 8 agents directly with Promise.all, in the same process. Scripted models, no delays, so the
// figures are the framework's own work (runs, tool calls, events, the manager), not waiting.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { loadavg } from 'node:os';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { subagents } from 'ghostlight/subagents';
import { collectGarbage, median, ms } from './harness';
import type { BenchSection } from './harness';

const CHILDREN = 8;
const ROUNDS = 30;
const RUNS_PER_SAMPLE = 5;
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A model that plays `turnFor(step)`, where the step is the number of assistant messages so far. */
function model(turnFor: (step: number, call: LanguageModelV4CallOptions) => LanguageModelV4StreamPart[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (call) => {
      const step = call.prompt.filter((message) => message.role === 'assistant').length;
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...turnFor(step, call)];
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
const calls = (items: Array<{ name: string; input: unknown }>): LanguageModelV4StreamPart[] => [
  ...items.map((item, index): LanguageModelV4StreamPart => ({ type: 'tool-call', toolCallId: `c${index}`, toolName: item.name, input: JSON.stringify(item.input) })),
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

const lookup = defineTool({ name: 'lookup', description: 'Look a topic up.', input: v.strictObject({ topic: v.string() }), execute: ({ topic }) => `notes on ${topic}` });

/** The child: one tool call, then an answer (two model turns). */
const researcher = defineAgent({
  name: 'researcher',
  model: model((step) => (step === 0 ? calls([{ name: 'lookup', input: { topic: 'x' } }]) : text('findings'))),
  tools: [lookup],
});

const tasks = Array.from({ length: CHILDREN }, (_, index) => `topic ${index}`);

/** The lead: 8 sync spawns in one response, then the answer. */
const lead = defineAgent({
  name: 'lead',
  model: model((step) =>
    step === 0
      ? calls(tasks.map((task, index) => ({ name: 'spawn_subagent', input: { kind: 'researcher', task_name: `task_${index}`, task, mode: 'sync' } })))
      : text('all done'),
  ),
  capabilities: [subagents([{ agent: researcher, description: 'Researches one topic' }])],
});

/** The same lead shape with 8 ordinary tool calls instead of spawns: the lead's own two turns and 8 calls. */
const noop = defineTool({ name: 'note', description: 'Take a note.', input: v.strictObject({ topic: v.string() }), execute: ({ topic }) => topic });
const plainLead = defineAgent({
  name: 'plain',
  model: model((step) => (step === 0 ? calls(tasks.map((topic) => ({ name: 'note', input: { topic } }))) : text('all done'))),
  tools: [noop],
});

async function viaSubagents(): Promise<void> {
  const run = await lead.ask('Research all topics');
  const finished = run.steps[0]!.toolResults.filter((result) => (result.value as { status?: string }).status === 'finished');
  if (run.outcome !== 'completed' || finished.length !== CHILDREN) throw new Error(`unexpected lead run: ${run.outcome}`);
}

async function direct(): Promise<void> {
  const runs = await Promise.all(tasks.map((task) => researcher.ask(task)));
  if (runs.some((run) => run.outcome !== 'completed')) throw new Error('unexpected direct run');
}

async function plain(agent: Agent): Promise<void> {
  const run = await agent.ask('Note all topics');
  if (run.outcome !== 'completed') throw new Error('unexpected plain run');
}

/** Alternating samples (so a busy moment of a shared machine hits every variant alike), each the mean of a few runs. */
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

export async function bench(): Promise<BenchSection> {
  const variants = [
    ['8 agents with `Promise.all` (direct)', direct],
    ['lead + 8 sync `spawn_subagent` calls', viaSubagents],
    ['lead + 8 ordinary tool calls (no subagents)', () => plain(plainLead)],
  ] as const;
  const samples = await alternate(variants.map(([, task]) => task));
  const measured = variants.map(([label], index): [string, number, number] => [label, median(samples[index]!), Math.min(...samples[index]!)]);
  const [directMs, subagentMs, plainMs] = measured.map(([, value]) => value) as [number, number, number];
  const [directMin, subagentMin] = measured.map(([, , min]) => min) as [number, number, number];
  const perChild = (subagentMs - directMs) / CHILDREN;
  const perChildMachinery = (subagentMs - directMs - plainMs) / CHILDREN;
  const rows = measured.map(([label, value, min]) => `| ${label} | ${ms(value)} | ${ms(min)} |`).join('\n');
  const signed = (value: number) => (value < 0 ? `−${ms(-value)}` : ms(value));
  return {
    key: 'subagents',
    title: 'Subagents: 8 concurrent sync subagents vs Promise.all (issue 13)',
    markdown: `Each child is the same agent: one tool call, then an answer (two scripted model turns, no delays). The lead spawns all 8
in one model response (\`mode: "sync"\`: the calls run concurrently, up to the executor's 8 at once, each waiting for its
child's turn) and then answers; the direct alternative runs the same 8 agents with \`Promise.all\`. ${ROUNDS} alternating samples
of each, each the mean of ${RUNS_PER_SAMPLE} runs (garbage collected before each sample). The third row is the lead's own cost (two
model turns and 8 tool calls) without subagents, to separate it from the manager's.

| what | median | min |
|---|---|---|
${rows}

- Ratio, subagents / direct: **${(subagentMs / directMs).toFixed(2)}×** (medians), **${(subagentMin / directMin).toFixed(2)}×** (minimums).
- Overhead per child: **${signed(perChild)}** (median lead run − median direct, ÷ 8; **${signed((subagentMin - directMin) / CHILDREN)}** from the minimums); without the lead's own turns and calls, the subagent
  machinery (manager, identities, child runs started from tool calls, lifecycle events) is **${signed(perChildMachinery)}** per child.
  Load average at the end of the run: ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min); on a shared machine
  absolute times move between runs more than the ratio does.`,
  };
}
