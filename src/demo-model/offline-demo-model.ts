import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { planDemoTurn } from './demo-policy.ts';
import type { DemoRequest, DemoTurn } from './demo-policy.ts';

/** Options of {@link createOfflineDemoModel}. */
export interface OfflineDemoModelOptions {
  /** Decides each turn; defaults to the built-in keyword policy. */
  respond?: (request: DemoRequest) => DemoTurn;
  /** Characters per streamed text delta (default 12). */
  chunkSize?: number;
  /** Milliseconds between streamed parts, to look like a remote model (default 0). */
  delayMs?: number;
}

/**
 * A small, deterministic, offline `LanguageModel` for demos and tests that
 * need no provider key. Given tools, it calls the ones whose names or
 * descriptions match the user's words (arguments derived from their schemas)
 * and then answers from their results; without tools it answers plainly. It
 * streams like a real provider (text deltas, tool input deltas, usage).
 *
 * It is not a language model in any real sense, and says so in its answers.
 *
 * @example
 * const agent = defineAgent({ name: 'demo', model: createOfflineDemoModel(), tools: [lookup] });
 */
export function createOfflineDemoModel(options: OfflineDemoModelOptions = {}): LanguageModelV4 {
  const respond = options.respond ?? planDemoTurn;
  const chunkSize = options.chunkSize ?? 12;
  const delayMs = options.delayMs ?? 0;
  let callCount = 0;
  // Tool call ids must not repeat within a conversation, even across models. Drawn on the first call, not
  // here: Workers refuse random values at module scope, where applications construct their models.
  let instance: string | undefined;
  const decide = (call: LanguageModelV4CallOptions) => {
    callCount++;
    instance ??= crypto.randomUUID().slice(0, 8);
    const request = {
      ...toDemoRequest(call.prompt, (call.tools ?? []).filter(isFunctionTool)),
      ...demoChoice(call),
    };
    return { turn: respond(request), prompt: call.prompt, id: `demo-${instance}-${callCount}` };
  };
  return {
    specificationVersion: 'v4',
    provider: 'ghostlight',
    modelId: 'offline-demo',
    supportedUrls: {},
    async doGenerate(call) {
      const { turn, prompt, id } = decide(call);
      const content: LanguageModelV4Content[] = [];
      if (turn.text) content.push({ type: 'text', text: turn.text });
      turn.toolCalls?.forEach((toolCall, index) =>
        content.push({ type: 'tool-call', toolCallId: `${id}-call-${index + 1}`, toolName: toolCall.toolName, input: JSON.stringify(toolCall.input) }),
      );
      return {
        content,
        finishReason: finishReasonOf(turn),
        usage: usageOf(prompt, turn),
        warnings: [],
        response: { id, modelId: 'offline-demo', timestamp: new Date(0) },
      };
    },
    async doStream(call) {
      const { turn, prompt, id } = decide(call);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id, modelId: 'offline-demo', timestamp: new Date(0) },
      ];
      if (turn.text) {
        parts.push({ type: 'text-start', id: `${id}-text` });
        for (let offset = 0; offset < turn.text.length; offset += chunkSize) {
          parts.push({ type: 'text-delta', id: `${id}-text`, delta: turn.text.slice(offset, offset + chunkSize) });
        }
        parts.push({ type: 'text-end', id: `${id}-text` });
      }
      turn.toolCalls?.forEach((toolCall, index) => {
        const toolCallId = `${id}-call-${index + 1}`;
        const input = JSON.stringify(toolCall.input);
        parts.push({ type: 'tool-input-start', id: toolCallId, toolName: toolCall.toolName });
        parts.push({ type: 'tool-input-delta', id: toolCallId, delta: input });
        parts.push({ type: 'tool-input-end', id: toolCallId });
        parts.push({ type: 'tool-call', toolCallId, toolName: toolCall.toolName, input });
      });
      parts.push({ type: 'finish', finishReason: finishReasonOf(turn), usage: usageOf(prompt, turn) });
      if (delayMs <= 0) {
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      let index = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            if (index > 1) await pause(delayMs, call.abortSignal);
            const part = parts[index++];
            if (part) controller.enqueue(part);
            else controller.close();
          },
        }),
      };
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

function demoChoice(call: LanguageModelV4CallOptions): Pick<DemoRequest, 'toolChoice' | 'responseSchema'> {
  const choice = call.toolChoice;
  const format = call.responseFormat;
  return {
    ...(choice?.type === 'required' ? { toolChoice: 'required' as const } : {}),
    ...(choice?.type === 'tool' ? { toolChoice: { toolName: choice.toolName } } : {}),
    ...(format?.type === 'json' && format.schema ? { responseSchema: format.schema as Record<string, unknown> } : {}),
  };
}

function isFunctionTool(tool: { type: string }): tool is LanguageModelV4FunctionTool {
  return tool.type === 'function';
}

function toDemoRequest(prompt: LanguageModelV4Prompt, tools: LanguageModelV4FunctionTool[]): DemoRequest {
  let lastUser = -1;
  prompt.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const userText =
    lastUser < 0
      ? ''
      : (prompt[lastUser]!.content as Array<{ type: string; text?: string }>)
          .filter((part) => part.type === 'text')
          .map((part) => part.text ?? '')
          .join('\n');
  const toolResults: Array<DemoRequest['toolResults'][number]> = [];
  for (const message of prompt.slice(lastUser + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      const text = 'value' in output ? (typeof output.value === 'string' ? output.value : JSON.stringify(output.value)) : '';
      toolResults.push({ toolName: part.toolName, content: text, isError: output.type.startsWith('error') });
    }
  }
  const system = prompt.find((message) => message.role === 'system');
  return {
    userText,
    instructions: system && typeof system.content === 'string' ? system.content : '',
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as Record<string, unknown> })),
    toolResults,
  };
}

function finishReasonOf(turn: DemoTurn) {
  const unified = turn.toolCalls && turn.toolCalls.length > 0 ? ('tool-calls' as const) : ('stop' as const);
  return { unified, raw: unified };
}

function usageOf(prompt: LanguageModelV4Prompt, turn: DemoTurn): LanguageModelV4Usage {
  const input = Math.ceil(promptChars(prompt) / 4);
  const output = Math.ceil(((turn.text ?? '').length + JSON.stringify(turn.toolCalls ?? []).length) / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** Tokens a file stands for in the estimate, whatever its size (its bytes are never read). */
const FILE_CHARS = 1_000;

/**
 * The prompt's size in characters for the token estimate: text as it is, tool
 * inputs and outputs by their text, each file as a fixed amount. Nothing is
 * serialised whole, so a prompt holding a large file costs no extra memory.
 */
function promptChars(prompt: LanguageModelV4Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (typeof message.content === 'string') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          chars += part.text.length;
          break;
        case 'tool-call':
          chars += typeof part.input === 'string' ? part.input.length : FILE_CHARS;
          break;
        case 'tool-result': {
          const output = part.output;
          chars += 'value' in output && typeof output.value === 'string' ? output.value.length : FILE_CHARS;
          break;
        }
        default:
          chars += FILE_CHARS;
      }
    }
  }
  return chars;
}
