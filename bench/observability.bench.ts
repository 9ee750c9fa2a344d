// The cost of instrumentation on the 1,000-tool-call loop of agent-loop.bench.ts: no instrumentation, a bus with
// no subscriber, the bus with a no-op subscriber, and the OpenTelemetry adapter exporting to the SDK's in-memory
// exporter, alternated in one process.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Instrumentation } from 'ghostlight';
import { openTelemetry } from 'ghostlight/opentelemetry';
import { CALLS_PER_STEP, ghostlightAgent, scriptedModel, TOOL_STEPS } from './agent-loop.bench';
import { collectGarbage, median, ms, sample } from './harness';
import type { BenchSection } from './harness';

const ITERATIONS = 20;
/** Runs per sample: a sample is their mean, which evens out a busy machine's hiccups. */
const RUNS_PER_SAMPLE = 5;

function variants() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const otel = new Instrumentation({ subscribers: [openTelemetry({ tracerProvider: provider })] });
  return [
    { name: 'no instrumentation', instrumentation: undefined, after: () => undefined },
    { name: 'a bus with no subscriber', instrumentation: new Instrumentation(), after: () => undefined },
    { name: 'the bus with a no-op subscriber', instrumentation: new Instrumentation({ subscribers: [{ start() {}, finish() {}, emit() {} }] }), after: () => undefined },
    {
      name: 'the OpenTelemetry adapter, in-memory exporter',
      instrumentation: otel,
      after: () => {
        const spans = exporter.getFinishedSpans().length;
        if (spans < TOOL_STEPS * CALLS_PER_STEP) throw new Error(`only ${spans} spans`);
        exporter.reset();
      },
    },
  ] as const;
}

export async function bench(): Promise<BenchSection> {
  const cases = variants();
  const times = cases.map(() => [] as number[]);
  const runs = cases.map((variant) => async () => {
    const run = await ghostlightAgent(scriptedModel(TOOL_STEPS, CALLS_PER_STEP), variant.instrumentation ? { instrumentation: variant.instrumentation } : {}).ask('go');
    if (run.outcome !== 'completed' || run.steps.length !== TOOL_STEPS + 1) throw new Error(`unexpected run: ${run.outcome}`);
    variant.after();
  });
  for (const run of runs) await sample(run, 0, 5);
  for (let round = 0; round < ITERATIONS; round++) {
    for (const [index, run] of runs.entries()) {
      collectGarbage();
      const [total] = await sample(async () => {
        for (let count = 0; count < RUNS_PER_SAMPLE; count++) await run();
      }, 1, 0);
      times[index]!.push(total! / RUNS_PER_SAMPLE);
    }
  }
  const base = median(times[0]!);
  const fastest = Math.min(...times[0]!);
  const rows = cases.map((variant, index) => {
    const own = times[index]!;
    return `| ${variant.name} | ${ms(median(own))} | ${ms(Math.min(...own))} | ${(median(own) / base).toFixed(2)}× | ${(Math.min(...own) / fastest).toFixed(2)}× |`;
  });
  return {
    key: 'observability',
    title: 'Instrumentation overhead (issue 17)',
    markdown: `
The agent-loop run (${TOOL_STEPS} tool steps × ${CALLS_PER_STEP} calls = ${TOOL_STEPS * CALLS_PER_STEP} tool calls + 1 answer, scripted
\`MockLanguageModelV4\`), ${ITERATIONS} alternating samples of each variant, each the mean of ${RUNS_PER_SAMPLE} runs (garbage collected before each sample). An instrumented run reports
${TOOL_STEPS * CALLS_PER_STEP + 2 * (TOOL_STEPS + 1) + 2} operations (run, agent, ${TOOL_STEPS + 1} turns, ${TOOL_STEPS + 1} model calls, ${TOOL_STEPS * CALLS_PER_STEP} tool calls).

| variant | median | min | median vs none | min vs none |
|---|---|---|---|---|
${rows.join('\n')}

Without a bus, or with a bus that has no subscriber, a run starts no operation at all: every instrumentation
point is an optional call on an undefined handle, so its ratios are noise around 1.00× (on a shared 2-core machine
the minimum is the steadier figure). The OpenTelemetry row
includes the SDK's own span objects and the \`SimpleSpanProcessor\` export of every span.
`,
  };
}
