// Long conversations: a 500-turn scripted session against a model with a small context window (8,000 tokens,
// counted as the prompt's JSON over four characters, and enforced: a longer prompt gets the provider's 400
// context_length_exceeded), without context management, with manageContext() (proactive compaction), and with
// overflow recovery alone (threshold 1). Tokens are what the model reports as input, so the figures are exact
// for this model; wall time is for the whole session.
import { APICallError } from '@ai-sdk/provider';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import type { RunCapability } from 'ghostlight';
import { manageContext, SUMMARIZATION_PROMPT } from 'ghostlight/context';
import { ms } from './harness';
import type { BenchSection } from './harness';

const TURNS = 500;
const WINDOW = 8_000;

interface Counter {
  /** Input tokens of each conversation call that succeeded, in order. */
  sent: number[];
  summaryInput: number;
  summaryOutput: number;
  summaries: number;
  overflows: number;
}

const tokens = (prompt: LanguageModelV4CallOptions['prompt']) => Math.ceil(JSON.stringify(prompt).length / 4);

/** A model with an enforced window: answers each turn with ~300 characters, summaries with ~600. */
function windowedModel(counter: Counter, window: number): LanguageModelV4 {
  let turn = 0;
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'windowed',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('not used')),
    async doStream(options) {
      const input = tokens(options.prompt);
      const summary = options.prompt[0]?.role === 'system' && options.prompt[0].content === SUMMARIZATION_PROMPT;
      if (input > window) {
        counter.overflows++;
        throw new APICallError({
          message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${input} tokens.`,
          url: 'https://bench.test/v1/chat/completions',
          requestBodyValues: {},
          statusCode: 400,
          responseBody: JSON.stringify({ error: { code: 'context_length_exceeded', type: 'invalid_request_error' } }),
        });
      }
      const text = summary
        ? `- The user asked a series of numbered questions about orders, shipping and returns; each was answered from policy.\n- ${'Key facts were kept: order numbers, dates, the customer preferences and the open questions. '.repeat(6)}`
        : `Answer ${++turn}: ${'this is what the assistant says about the question, in a few sentences of ordinary length. '.repeat(3)}`;
      const output = Math.ceil(text.length / 4);
      if (summary) {
        counter.summaries++;
        counter.summaryInput += input;
        counter.summaryOutput += output;
      } else counter.sent.push(input);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } } },
      ];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  };
}

interface Outcome {
  label: string;
  completed: number;
  counter: Counter;
  wallMs: number;
  failedAt: number | undefined;
}

async function session(label: string, window: number, capabilities: RunCapability[]): Promise<Outcome> {
  const counter: Counter = { sent: [], summaryInput: 0, summaryOutput: 0, summaries: 0, overflows: 0 };
  const agent = defineAgent({ name: 'long', model: windowedModel(counter, window), capabilities });
  const sessions = new MemorySessionStore();
  const started = performance.now();
  let completed = 0;
  let failedAt: number | undefined;
  for (let turn = 1; turn <= TURNS; turn++) {
    const run = await agent.ask(`Question ${turn}: could you check order ${1000 + turn} and tell me when it ships and how returns work for it?`, { sessions, sessionId: label, actorId: 'bench' });
    if (run.outcome !== 'completed') {
      failedAt = turn;
      break;
    }
    completed++;
  }
  return { label, completed, counter, wallMs: performance.now() - started, failedAt };
}

const at = (values: number[], turn: number) => (values[turn - 1] === undefined ? '—' : values[turn - 1]!.toLocaleString('en-US'));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => (values.length === 0 ? 0 : Math.round(sum(values) / values.length));

export async function bench(): Promise<BenchSection> {
  const unbounded = await session('unbounded', Number.POSITIVE_INFINITY, []);
  const plain = await session('no-compaction', WINDOW, []);
  const proactive = await session('compaction', WINDOW, [manageContext({ contextWindowTokens: WINDOW })]);
  const recovery = await session('recovery', WINDOW, [manageContext({ contextWindowTokens: WINDOW, compressionThreshold: 1 })]);
  const rows = [
    ['no compaction, no window (what the session would send)', unbounded],
    [`no compaction, ${WINDOW.toLocaleString('en-US')}-token window`, plain],
    ['`manageContext()` (threshold 0.85)', proactive],
    ['`manageContext({ compressionThreshold: 1 })`: overflow recovery', recovery],
  ] as const;
  for (const [label, outcome] of rows) console.log(label, outcome.completed, outcome.counter.summaries, outcome.counter.overflows, ms(outcome.wallMs));

  const table = rows.map(([label, { completed, counter, wallMs, failedAt }]) =>
    `| ${label} | ${completed}${failedAt ? ` (fails at turn ${failedAt})` : ''} | ${at(counter.sent, 100)} / ${at(counter.sent, 250)} / ${at(counter.sent, 500)} | ${mean(counter.sent).toLocaleString('en-US')} | ${Math.max(0, ...counter.sent).toLocaleString('en-US')} | ${sum(counter.sent).toLocaleString('en-US')} | ${counter.summaries} | ${counter.overflows} | ${counter.summaryInput.toLocaleString('en-US')} / ${counter.summaryOutput.toLocaleString('en-US')} | ${ms(wallMs)} |`,
  );
  const compactionCost = proactive.counter.summaryInput + proactive.counter.summaryOutput;
  const ratio = sum(unbounded.counter.sent) / (sum(proactive.counter.sent) + compactionCost);
  return {
    key: 'context',
    title: 'Long conversations: context management',
    markdown: `A ${TURNS}-turn session (one \`agent.ask\` per turn, \`MemorySessionStore\`) with a scripted model whose context window is ${WINDOW.toLocaleString('en-US')} tokens: it counts a prompt as its JSON over four characters, refuses a longer one with a 400 \`context_length_exceeded\` (mapped to \`ContextWindowOverflowError\`), answers each turn with about 300 characters and each summary request with about 600. "Sent" is the input tokens of each turn's model call; the summary calls are counted apart.

| configuration | turns completed | sent at turn 100 / 250 / 500 | mean sent per turn | max sent per turn | total sent | summaries | overflows | summary cost in / out | wall time |
|---|---|---|---|---|---|---|---|---|---|
${table.join('\n')}

- Without compaction the conversation outgrows the window at turn ${plain.failedAt ?? '—'}; unbounded, turn ${TURNS} alone would send ${at(unbounded.counter.sent, TURNS)} tokens.
- With \`manageContext()\` every one of the ${TURNS} turns completes, no turn sends more than ${Math.max(...proactive.counter.sent).toLocaleString('en-US')} tokens, and the compaction's own cost (${proactive.counter.summaries} summaries: ${proactive.counter.summaryInput.toLocaleString('en-US')} input + ${proactive.counter.summaryOutput.toLocaleString('en-US')} output tokens) is ${((compactionCost / (sum(proactive.counter.sent) + compactionCost)) * 100).toFixed(1)}% of all tokens; in total the session costs ${ratio.toFixed(1)}× fewer tokens than the same conversation sent whole.
- Overflow recovery alone also completes every turn, paying one refused request per compaction (${recovery.counter.overflows} overflows).`,
  };
}
