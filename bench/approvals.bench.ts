// Human approvals (issue 18): the cost of one approval round trip (stop waiting, resume, run the call,
// answer) through Ghostlight and through AI SDK's own approval flow (streamText with needsApproval,
// then a tool-approval-response message); and the cost of a code-mode replay against the original
// program run and against re-running the program from scratch.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { streamText, tool } from 'ai';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { defineAgent, defineTool, MemorySessionStore } from 'ghostlight';
import type { Run } from 'ghostlight';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { codeMode, createQuickJsEngine } from 'ghostlight/code-mode';
import { median, ms } from './harness';
import type { BenchSection } from './harness';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const input = v.strictObject({ order: v.string(), amount: v.number() });

/** A model that calls `toolName` once (with `args`), then answers: the turn is read from the prompt. */
function model(toolName: string, args: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const answered = options.prompt.some((message) => message.role === 'tool');
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (!answered) {
        parts.push({ type: 'tool-call', toolCallId: 'c1', toolName, input: JSON.stringify(args) });
        parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage });
      } else {
        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' });
        parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      }
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });
}

async function perRound(rounds: number, iterations: number, task: (index: number) => Promise<unknown>): Promise<number> {
  const results: number[] = [];
  let index = 0;
  for (let warm = 0; warm < 20; warm++) await task(index++);
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let count = 0; count < iterations; count++) await task(index++);
    results.push((performance.now() - started) / iterations);
  }
  return median(results);
}

async function approvalRoundTrip(): Promise<{ ghostlight: number; aiSdk: number }> {
  const sessions = new MemorySessionStore();
  const refund = defineTool({ name: 'refund', description: 'Refund an order.', input, needsApproval: true, execute: ({ amount }) => `refunded ${amount}` });
  const agent = defineAgent({ name: 'bench', model: model('refund', { order: 'A', amount: 1 }), tools: [refund] });
  const ghostlight = await perRound(7, 200, async (index) => {
    const options = { sessions, sessionId: `s${index}`, actorId: 'bench' };
    const waiting = await agent.ask('Refund A', options);
    const resumed: Run = await agent.resume([{ approvalId: waiting.pendingApprovals[0]!.approvalId, approved: true }], options);
    if (resumed.response !== 'done') throw new Error('Ghostlight round trip failed');
  });
  const aiModel = model('refund', { order: 'A', amount: 1 });
  const tools = { refund: tool({ description: 'Refund an order.', inputSchema: toStandardJsonSchema(input), needsApproval: true, execute: async ({ amount }) => `refunded ${amount}` }) };
  const aiSdk = await perRound(7, 200, async () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'Refund A' }];
    const first = streamText({ model: aiModel, tools, messages });
    const request = (await first.content).find((part) => part.type === 'tool-approval-request');
    if (!request || request.type !== 'tool-approval-request') throw new Error('AI SDK did not ask for approval');
    messages.push(...(await first.response).messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    const second = streamText({ model: aiModel, tools, messages });
    if ((await second.text) !== 'done') throw new Error('AI SDK round trip failed');
  });
  return { ghostlight, aiSdk };
}

/** A program of `lookups` awaited lookups, then one refund that needs approval. */
const program = (lookups: number) =>
  `let total = 0;\nfor (let i = 0; i < ${lookups}; i++) total += (await tools.lookup({ order: 'o' + i })).total;\nreturn await tools.refund({ order: 'A', amount: total + Math.random() * 0 + Date.now() * 0 });`;

async function replayCost(lookups: number, toolMs: number): Promise<{ original: number; replay: number; scratch: number }> {
  const engine = createQuickJsEngine({ variant });
  const wait = () => (toolMs > 0 ? new Promise((resolve) => setTimeout(resolve, toolMs)) : Promise.resolve());
  const lookup = defineTool({ name: 'lookup', description: 'Look up an order.', input: v.strictObject({ order: v.string() }), execute: async () => (await wait(), { total: 1 }) });
  const refund = (needsApproval: boolean) => defineTool({ name: 'refund', description: 'Refund an order.', input, needsApproval, execute: () => 'refunded' });
  const source = program(lookups);
  const sessions = new MemorySessionStore();
  const waitingAgent = defineAgent({ name: 'bench', model: model('exec', { source }), tools: [lookup, refund(true)], capabilities: [codeMode({ engine })], limits: { maxToolCalls: 10_000 } });
  const scratchAgent = defineAgent({ name: 'bench', model: model('exec', { source }), tools: [lookup, refund(false)], capabilities: [codeMode({ engine })], limits: { maxToolCalls: 10_000 } });
  const originals: number[] = [];
  const replays: number[] = [];
  const scratches: number[] = [];
  for (let index = 0; index < 12; index++) {
    const options = { sessions, sessionId: `r${lookups}-${toolMs}-${index}`, actorId: 'bench' };
    let started = performance.now();
    const waiting = await waitingAgent.ask('go', options);
    const original = performance.now() - started;
    started = performance.now();
    const resumed = await waitingAgent.resume([{ approvalId: waiting.pendingApprovals[0]!.approvalId, approved: true }], options);
    const replay = performance.now() - started;
    started = performance.now();
    const scratch = await scratchAgent.ask('go');
    const fromScratch = performance.now() - started;
    if (resumed.outcome !== 'completed' || scratch.outcome !== 'completed') throw new Error('replay bench failed');
    if (index >= 2) {
      originals.push(original);
      replays.push(replay);
      scratches.push(fromScratch);
    }
  }
  return { original: median(originals), replay: median(replays), scratch: median(scratches) };
}

export async function bench(): Promise<BenchSection> {
  const trip = await approvalRoundTrip();
  const rows: string[] = [];
  for (const [lookups, toolMs] of [[10, 0], [100, 0], [10, 5], [100, 5]] as const) {
    const cost = await replayCost(lookups, toolMs);
    rows.push(`| ${lookups} lookups, ${toolMs} ms each | ${ms(cost.original)} | ${ms(cost.replay)} | ${ms(cost.scratch)} | ${(cost.replay / cost.scratch).toFixed(2)}× |`);
  }
  return {
    key: 'approvals',
    title: 'Human approvals and code-mode replay (issue 18)',
    markdown: `One approval round trip: the model calls a tool that needs approval, the run stops, the answer approves it, the
call runs and the model answers (scripted \`MockLanguageModelV4\`, 2 model calls). Ghostlight: \`agent.ask\` (ends
\`waiting\`, the stop stored in a \`MemorySessionStore\`) + \`agent.resume\` (claim, call, checkpoint, answer). AI SDK:
\`streamText\` (consumed) with \`needsApproval\` + a second \`streamText\` with the \`tool-approval-response\` (the
application keeps the messages; nothing is stored). 7 rounds of 200, medians.

| one approval round trip | per round trip |
|---|---|
| Ghostlight \`ask\` + \`resume\` (session store, exactly-once claim) | ${ms(trip.ghostlight)} |
| AI SDK \`streamText\` × 2 with \`tool-approval-response\` | ${ms(trip.aiSdk)} |

**Ratio Ghostlight / AI SDK: ${(trip.ghostlight / trip.aiSdk).toFixed(2)}×** (AI SDK cannot pause inside a program at all).

Code-mode replay: a program makes N awaited \`lookup\` calls, then calls \`refund\`, which needs approval. "Original"
is the run up to the stop; "replay" is \`agent.resume\`: the program is re-run in a fresh QuickJS context against
its journal (the lookups answered from it, not executed), then the refund runs and the model answers. "From
scratch" is the same program in an agent whose refund needs no approval (every lookup executed). In-thread QuickJS
engine, 10 runs after 2 warm-ups, medians.

| program | original (to the stop) | replay (resume to the answer) | from scratch | replay / scratch |
|---|---|---|---|---|
${rows.join('\n')}

With tools that do I/O, a replay costs the interpreter's time only (the journal answers the calls), so it is far
cheaper than re-running the program; with instant tools it costs about one program run.

Bundle cost (\`npm run size\`, 2026-12-01, before/after this work on the same main): executions, interjections in
the core (\`agent.interject\` and \`Execution.interject\` now bundle the queue), approvals, the approval routes and
encoders add **+6.0 KiB gzip** to the Minimal Worker (54.9 → 60.9 KiB, budget 100) and **+5.9 KiB** to the Full
Worker (175.4 → 181.3 KiB, budget 200; code-mode replay is +3.8 KiB minified of it).`,
  };
}
