import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** The text of a call's prompt (system and user parts). */
export function promptText(call: LanguageModelV4CallOptions): string {
  return call.prompt
    .map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')))
    .join('\n');
}

/** A model answering each call with the text `respond` returns (streamed in one delta); it records every call. */
export function textModel(respond: (call: LanguageModelV4CallOptions, index: number) => string): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      const index = calls.length;
      calls.push(options);
      const text = respond(options, index);
      const usage = { inputTokens: { total: Math.ceil(promptText(options).length / 4), noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
      return { stream: new ReadableStream({ start: (controller) => { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
  return Object.assign(model, { calls });
}

/** A planner that answers with `plans` in order (each the plan object, sent as `{"plan": "<json>"}`). */
export function plannerModel(...plans: unknown[]): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  return textModel((_call, index) => {
    if (index >= plans.length) throw new Error(`plannerModel ran out of plans at call ${index + 1}`);
    const plan = plans[index];
    return JSON.stringify({ plan: typeof plan === 'string' ? plan : JSON.stringify(plan) });
  });
}
