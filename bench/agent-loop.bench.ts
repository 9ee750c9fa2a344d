// The loop's own overhead: one scripted model, the same tool, 200 tool steps with 1,000 tool calls
// plus a final answer, through Ghostlight and through AI SDK's ToolLoopAgent in the same process.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { ToolLoopAgent, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { AgentDefinition, Run } from 'ghostlight';
import { collectGarbage, median, ms, sample } from './harness';
import type { BenchSection } from './harness';

export const TOOL_STEPS = 200;
export const CALLS_PER_STEP = 5;
const ITERATIONS = 7;
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const addInput = v.strictObject({ a: v.number(), b: v.number() });

/** A model that plays the same script for any loop: the step number is the number of assistant messages so far. */
export function scriptedModel(toolSteps: number, callsPerStep: number): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const step = options.prompt.filter((message) => message.role === 'assistant').length;
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (step < toolSteps) {
        for (let call = 0; call < callsPerStep; call++) {
          parts.push({ type: 'tool-call', toolCallId: `s${step}c${call}`, toolName: 'add', input: `{"a":${step},"b":${call}}` });
        }
        parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage });
      } else {
        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' });
        parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      }
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

export const ghostlightAgent = (model: MockLanguageModelV4, extra: Partial<AgentDefinition> = {}) =>
  defineAgent({
    ...extra,
    name: 'bench',
    model,
    tools: [defineTool({ name: 'add', description: 'Add two numbers.', input: addInput, execute: ({ a, b }) => a + b })],
    limits: { maxTurns: TOOL_STEPS + 1, maxToolCalls: TOOL_STEPS * CALLS_PER_STEP },
  });

const aiSdkAgent = (model: MockLanguageModelV4) =>
  new ToolLoopAgent({
    model,
    tools: { add: tool({ description: 'Add two numbers.', inputSchema: toStandardJsonSchema(addInput), execute: async ({ a, b }) => a + b }) },
    stopWhen: isStepCount(TOOL_STEPS + 1),
  });

export async function runGhostlight(): Promise<void> {
  const run = await ghostlightAgent(scriptedModel(TOOL_STEPS, CALLS_PER_STEP)).ask('go');
  if (run.outcome !== 'completed' || run.steps.length !== TOOL_STEPS + 1) throw new Error(`unexpected run: ${run.outcome}`);
}

export async function runAiSdk(): Promise<void> {
  const result = await aiSdkAgent(scriptedModel(TOOL_STEPS, CALLS_PER_STEP)).stream({ prompt: 'go' });
  await result.consumeStream();
  if ((await result.steps).length !== TOOL_STEPS + 1) throw new Error('unexpected AI SDK run');
}

/** A small run (one tool call, one answer) repeated, for the fixed per-run cost. */
async function smallRuns(count: number, loop: 'ghostlight' | 'ai-sdk'): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    if (loop === 'ghostlight') await ghostlightAgent(scriptedModel(1, 1)).ask('go');
    else await (await aiSdkAgent(scriptedModel(1, 1)).stream({ prompt: 'go' })).consumeStream();
  }
  return (performance.now() - started) / count;
}

/** Heap held per finished run of a small agent (one tool call, one answer), kept alive in an array. */
async function memoryPerRun(count: number): Promise<number | undefined> {
  const agent = ghostlightAgent(scriptedModel(1, 1));
  await agent.ask('warm up');
  if (!collectGarbage()) return undefined;
  const before = process.memoryUsage().heapUsed;
  const runs: Run[] = [];
  for (let index = 0; index < count; index++) runs.push(await agent.ask(`question ${index}`));
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (runs.length !== count) throw new Error('lost runs');
  return (after - before) / count;
}

export async function bench(): Promise<BenchSection> {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (const [task, into] of [[runGhostlight, ours], [runAiSdk, theirs]] as const) await sample(task, 0, 2);
  for (let round = 0; round < ITERATIONS; round++) {
    // Alternate so both loops see the same machine conditions.
    ours.push(...(await sample(runGhostlight, 1, 0)));
    theirs.push(...(await sample(runAiSdk, 1, 0)));
  }
  const ratio = median(ours) / median(theirs);
  const smallOurs: number[] = [];
  const smallTheirs: number[] = [];
  await smallRuns(50, 'ghostlight');
  await smallRuns(50, 'ai-sdk');
  for (let round = 0; round < 5; round++) {
    smallOurs.push(await smallRuns(200, 'ghostlight'));
    smallTheirs.push(await smallRuns(200, 'ai-sdk'));
  }
  const perRun = await memoryPerRun(500);
  return {
    key: 'agent-loop',
    title: 'Agent loop overhead (issue 2)',
    markdown: `
${TOOL_STEPS} tool steps × ${CALLS_PER_STEP} calls (${TOOL_STEPS * CALLS_PER_STEP} tool calls) + 1 answer step, scripted \`MockLanguageModelV4\`
streaming the same parts, the same valibot-typed \`add\` tool; ${ITERATIONS} alternating runs each, medians.

| loop | median | min | max |
|---|---|---|---|
| Ghostlight \`agent.ask\` | ${ms(median(ours))} | ${ms(Math.min(...ours))} | ${ms(Math.max(...ours))} |
| AI SDK \`ToolLoopAgent.stream\` (consumed) | ${ms(median(theirs))} | ${ms(Math.min(...theirs))} | ${ms(Math.max(...theirs))} |

**Ratio Ghostlight / AI SDK: ${ratio.toFixed(2)}×** (target ≤ 1.10×).

A small run (1 tool call + 1 answer, 2 model calls), mean of 200 runs, median of 5 rounds: Ghostlight
${ms(median(smallOurs))}, AI SDK ${ms(median(smallTheirs))}, **ratio ${(median(smallOurs) / median(smallTheirs)).toFixed(2)}×**.

Why the long run differs so much: both loops convert messages with AI SDK's own \`convertToLanguageModelPrompt\`,
but \`streamText\` re-converts (and re-scans for downloads and approvals) the whole growing history on every step,
while Ghostlight's \`ModelCaller\` converts each message once and calls the provider's \`doStream\` directly
(see docs/agents-and-tools.md, "Design note").

Memory held per idle finished Run (500 runs of a 2-step, 1-tool-call agent kept alive, \`--expose-gc\`):
**${perRun === undefined ? 'not measured (run with --expose-gc)' : `${(perRun / 1024).toFixed(1)} KB`}** (target < 50 KB). A Run keeps its whole event log, steps and messages.
`,
  };
}
