// Structured results: a structured agent (provider strategy: parse, subset check, valibot parse, redaction)
// against AI SDK streamText with Output.object on the same scripted model; and the two JSON Schema validators
// against valibot on the same value.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Output, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { defineAgent, validateJson, validateJsonSchema } from 'ghostlight';
import { median, ms, sample } from './harness';
import type { BenchSection } from './harness';

const RUNS = 200;
const ROUNDS = 7;
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const schema = v.strictObject({
  category: v.picklist(['billing', 'delivery', 'returns', 'other']),
  urgent: v.boolean(),
  summary: v.pipe(v.string(), v.maxLength(500)),
  items: v.array(v.strictObject({ sku: v.string(), quantity: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
});
const value = {
  category: 'delivery',
  urgent: true,
  summary: 'The package is missing and the customer leaves tomorrow.',
  items: Array.from({ length: 20 }, (_, index) => ({ sku: `SKU-${index}`, quantity: index + 1 })),
};
const json = JSON.stringify(value);

function model(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }];
      for (let offset = 0; offset < json.length; offset += 40) parts.push({ type: 'text-delta', id: 't', delta: json.slice(offset, offset + 40) });
      parts.push({ type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
}

export async function bench(): Promise<BenchSection> {
  const agent = defineAgent({ name: 'triage', model: model(), result: { schema, name: 'triage' }, modelCapabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true } });
  const aiModel = model();
  const standard = toStandardJsonSchema(schema);
  const ghostlight = await sample(async () => {
    for (let run = 0; run < RUNS; run++) {
      const result = await agent.ask('Triage this.');
      if (result.outcome !== 'completed') throw new Error('structured run failed');
    }
  }, ROUNDS);
  const aiSdk = await sample(async () => {
    for (let run = 0; run < RUNS; run++) {
      const result = streamText({ model: aiModel, prompt: 'Triage this.', output: Output.object({ schema: standard, name: 'triage' }) });
      await result.consumeStream();
      await result.output;
    }
  }, ROUNDS);

  const jsonSchema = agent.definition.result && (await import('../src/structured/prepare-structured-result')).resultSchemaFor(agent.definition.result, 'triage').jsonSchema;
  const CHECKS = 20_000;
  const time = async (check: () => unknown) => median(await sample(async () => { for (let index = 0; index < CHECKS; index++) check(); }, ROUNDS));
  const subset = await time(() => validateJson(jsonSchema!, value));
  const full = await time(() => validateJsonSchema(jsonSchema!, value));
  const valibot = await time(() => v.safeParse(schema, value));

  const g = median(ghostlight) / RUNS;
  const a = median(aiSdk) / RUNS;
  return {
    key: 'structured-results',
    title: 'Structured results and JSON Schema validation (issue 5)',
    markdown: `${RUNS} runs per round, ${ROUNDS} rounds, medians; scripted \`MockLanguageModelV4\` streaming the same ${json.length}-byte JSON answer in 40-byte deltas; the same valibot schema (20 line items).

| one structured answer | per run |
|---|---|
| Ghostlight \`agent.ask\` with \`result\` (provider strategy: JSON parse, size limits, subset check, valibot parse, redacted events, Run) | ${ms(g)} |
| AI SDK \`streamText\` + \`Output.object\` (consumed, \`await output\`) | ${ms(a)} |

**Ratio Ghostlight / AI SDK: ${(g / a).toFixed(2)}×** (Ghostlight also writes the run's event log and checks the value twice: subset validator, then valibot).

| validating the same value (${CHECKS.toLocaleString('en')} times) | per check |
|---|---|
| \`validateJson\` (subset, seed messages) | ${ms(subset / CHECKS)} |
| \`validateJsonSchema\` (@cfworker/json-schema, full 2020-12) | ${ms(full / CHECKS)} |
| valibot \`safeParse\` | ${ms(valibot / CHECKS)} |

Ratios: subset / cfworker **${(subset / full).toFixed(2)}×**, subset / valibot **${(subset / valibot).toFixed(2)}×**.`,
  };
}
