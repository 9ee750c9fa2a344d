import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** One scripted model turn. */
export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  toolCalls?: Array<{ id?: string; name: string; input: unknown; rawInput?: string }>;
  finishReason?: 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other';
  /** Throw this from doStream instead of answering. */
  error?: unknown;
  /** Wait this long (ms) before finishing, honouring the abort signal. */
  delayMs?: number;
  /** After the text, send this as the stream's `error` part instead of finishing. */
  streamError?: unknown;
  /** After the text, fail the stream as a dropped connection does (a TypeError). */
  dropAfterText?: boolean;
  /** Called with the call options before answering (e.g. to abort the run mid-call). */
  onCall?: (options: LanguageModelV4CallOptions) => void;
}

/** A usage value for scripted turns. */
export const scriptedUsage = {
  inputTokens: { total: 10, noCache: 8, cacheRead: 2, cacheWrite: 0 },
  outputTokens: { total: 5, text: 4, reasoning: 1 },
};

/**
 * A MockLanguageModelV4 that plays `turns` in order (one per model call) and
 * records every call, so tests can assert what the loop sent back.
 */
export function scriptedModel(turns: ScriptedTurn[]): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  let index = 0;
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      calls.push(options);
      const turn = turns[index++];
      if (!turn) throw new Error(`scriptedModel ran out of turns at call ${index}`);
      turn.onCall?.(options);
      if (turn.error !== undefined) throw turn.error;
      return { stream: streamOf(turn, index, options.abortSignal) };
    },
  });
  return Object.assign(model, { calls });
}

function streamOf(turn: ScriptedTurn, index: number, signal: AbortSignal | undefined): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (turn.reasoning) {
    parts.push({ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: turn.reasoning }, { type: 'reasoning-end', id: 'r' });
  }
  if (turn.text !== undefined) {
    parts.push({ type: 'text-start', id: 't' });
    for (const word of turn.text.match(/\S+\s*/g) ?? [turn.text]) parts.push({ type: 'text-delta', id: 't', delta: word });
    parts.push({ type: 'text-end', id: 't' });
  }
  (turn.toolCalls ?? []).forEach((call, callIndex) => {
    parts.push({
      type: 'tool-call',
      toolCallId: call.id ?? `call-${index}-${callIndex + 1}`,
      toolName: call.name,
      input: call.rawInput ?? JSON.stringify(call.input),
    });
  });
  const finishReason = turn.finishReason ?? (turn.toolCalls?.length ? 'tool-calls' : 'stop');
  const finish: LanguageModelV4StreamPart = { type: 'finish', finishReason: { unified: finishReason, raw: finishReason }, usage: scriptedUsage };
  if (turn.dropAfterText) {
    // Parts are handed out one read at a time: erroring a stream discards what is still queued.
    let next = 0;
    return new ReadableStream({
      pull(controller) {
        if (next < parts.length) controller.enqueue(parts[next++]!);
        else controller.error(new TypeError('terminated'));
      },
    });
  }
  return new ReadableStream({
    async start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (turn.streamError !== undefined) {
        controller.enqueue({ type: 'error', error: turn.streamError });
        controller.close();
        return;
      }
      if (turn.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, turn.delayMs);
          signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        }).catch((error: unknown) => controller.error(error));
      }
      try {
        controller.enqueue(finish);
        controller.close();
      } catch {
        // already errored by an abort
      }
    },
  });
}

/**
 * A model that answers each call with `respond(call, index)` (index counts its calls from 0), for tests where
 * calls overlap or their order is not fixed (subagents): the answer depends on the prompt, not on call order.
 */
export function respondingModel(
  respond: (call: LanguageModelV4CallOptions, index: number) => ScriptedTurn | Promise<ScriptedTurn>,
): MockLanguageModelV4 & { calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      const index = calls.length;
      calls.push(options);
      const turn = await respond(options, index);
      if (turn.error !== undefined) throw turn.error;
      return { stream: streamOf(turn, index + 1, options.abortSignal) };
    },
  });
  return Object.assign(model, { calls });
}

/** The text of the last user message of a call's prompt (what a subagent was asked). */
export function lastUserText(call: LanguageModelV4CallOptions): string {
  const user = [...call.prompt].reverse().find((message) => message.role === 'user');
  if (!user || !Array.isArray(user.content)) return '';
  return user.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The tool results a call's prompt carries after its last user message, by tool name, parsed from JSON when they are. */
export function toolOutputs(call: LanguageModelV4CallOptions): Array<{ toolName: string; value: unknown }> {
  const outputs: Array<{ toolName: string; value: unknown }> = [];
  for (const message of call.prompt) {
    if (message.role === 'user') outputs.length = 0;
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value?: unknown };
      let value = output.value;
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch {
          // plain text
        }
      }
      outputs.push({ toolName: part.toolName, value });
    }
  }
  return outputs;
}
