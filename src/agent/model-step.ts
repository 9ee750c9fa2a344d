import { jsonSchema, streamText } from 'ai';
import type { LanguageModel, ModelMessage, ToolChoice, ToolSet } from 'ai';
import type { EventPayload, FinishReason } from '../events/events';
import type { ToolCallRequest } from '../tool/invoke-tool';
import type { Tool } from '../tool/tool';
import { abortReason } from '../util/abort';
import { randomId } from '../util/id';
import { fromModelUsage } from './usage';
import type { Usage } from './usage';

/** Provider call settings passed through to AI SDK (temperature, max output tokens, retries…). */
export interface ModelSettings {
  /** Sampling temperature. */
  temperature?: number;
  /** Maximum output tokens of one model turn. */
  maxOutputTokens?: number;
  /** Nucleus sampling. */
  topP?: number;
  /** AI SDK retries of failed provider calls (default 2). */
  maxRetries?: number;
  /** Provider-specific options (AI SDK `providerOptions`). */
  providerOptions?: Record<string, Record<string, never>>;
  /** Extra HTTP headers for the provider request. */
  headers?: Record<string, string>;
}

/** One model request. */
export interface ModelStepRequest {
  model: LanguageModel;
  instructions: string | undefined;
  messages: readonly ModelMessage[];
  tools: readonly Tool[];
  toolChoice?: ToolChoice<ToolSet>;
  settings: ModelSettings;
  signal: AbortSignal;
  turn: number;
  emit: (event: EventPayload) => void;
  /** Receives the text streamed so far (for partial responses at a deadline). */
  onText?: (text: string) => void;
}

/** What one model turn produced. */
export interface ModelStepResult {
  text: string;
  reasoning: string;
  toolCalls: ToolCallRequest[];
  finishReason: FinishReason;
  usage: Usage;
  /** The assistant message(s) to append to the conversation, as AI SDK built them (provider metadata kept). */
  responseMessages: ModelMessage[];
}

const toolSetCache = new WeakMap<readonly Tool[], ToolSet>();

/**
 * Runs one model turn through AI SDK's `streamText` with the tools declared
 * but not executed, so AI SDK keeps providers, retries and message conversion
 * and Ghostlight keeps the loop. Maps stream parts to Ghostlight events.
 */
export async function runModelStep(request: ModelStepRequest): Promise<ModelStepResult> {
  const { emit, turn } = request;
  const messageId = randomId();
  let streamError: unknown;
  const result = streamText({
    model: request.model,
    instructions: request.instructions,
    messages: request.messages as ModelMessage[],
    tools: toToolSet(request.tools),
    toolChoice: request.toolChoice,
    abortSignal: request.signal,
    maxRetries: request.settings.maxRetries,
    temperature: request.settings.temperature,
    maxOutputTokens: request.settings.maxOutputTokens,
    topP: request.settings.topP,
    headers: request.settings.headers,
    providerOptions: request.settings.providerOptions,
    onError: ({ error }) => {
      streamError ??= error;
    },
  });

  emit({ type: 'message-start', turn, messageId });
  let text = '';
  let reasoning = '';
  let finishReason: FinishReason = 'other';
  let usage: Usage | undefined;
  const toolCalls: ToolCallRequest[] = [];
  const startedCalls = new Set<string>();

  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        if (part.text.length === 0) break;
        text += part.text;
        request.onText?.(text);
        emit({ type: 'text-delta', turn, messageId, text: part.text });
        break;
      case 'reasoning-delta':
        if (part.text.length === 0) break;
        reasoning += part.text;
        emit({ type: 'reasoning-delta', turn, messageId, text: part.text });
        break;
      case 'tool-input-start':
        startedCalls.add(part.id);
        emit({ type: 'tool-call-start', turn, toolCallId: part.id, toolName: part.toolName });
        break;
      case 'tool-input-delta':
        emit({ type: 'tool-call-delta', turn, toolCallId: part.id, delta: part.delta });
        break;
      case 'tool-call': {
        const invalidJson = part.invalid === true && isJsonParseFailure(part.error);
        const call: ToolCallRequest = {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          ...(invalidJson ? { invalidJson: true } : {}),
        };
        if (!startedCalls.has(part.toolCallId)) {
          emit({ type: 'tool-call-start', turn, toolCallId: part.toolCallId, toolName: part.toolName });
        }
        emit({ type: 'tool-call-stop', turn, toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        toolCalls.push(call);
        break;
      }
      case 'finish-step':
        finishReason = part.finishReason;
        usage = fromModelUsage(part.usage);
        break;
      case 'error':
        streamError ??= part.error;
        break;
      default:
        break;
    }
  }

  if (request.signal.aborted) throw abortReason(request.signal);
  if (streamError !== undefined) throw streamError;
  const response = await result.response;
  emit({ type: 'message-stop', turn, messageId, text, finishReason });
  return {
    text,
    reasoning,
    toolCalls,
    finishReason,
    usage: usage ?? fromModelUsage(undefined),
    responseMessages: response.messages.filter((message) => message.role === 'assistant'),
  };
}

function toToolSet(tools: readonly Tool[]): ToolSet | undefined {
  if (tools.length === 0) return undefined;
  let set = toolSetCache.get(tools);
  if (!set) {
    set = {};
    for (const tool of tools) {
      set[tool.name] = { description: tool.description, inputSchema: jsonSchema(tool.input.jsonSchema as never) };
    }
    toolSetCache.set(tools, set);
  }
  return set;
}

function isJsonParseFailure(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'AI_InvalidToolInputError';
}
