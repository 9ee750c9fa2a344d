import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4StreamPart, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { ModelMessage, ToolChoice, ToolSet } from 'ai';
import { ContextWindowOverflowError } from '../error/context-window-overflow-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import type { EventPayload, FinishReason } from '../events/events.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { abortReason } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { asLanguageModelUsage, AssistantContent, prepareToolChoice } from './model-call.ts';
import type { ModelCaller } from './model-call.ts';
import { withModelRetries } from './model-retry.ts';
import type { ModelRetryNotice } from './model-retry.ts';
import { fromModelUsage } from './usage.ts';
import type { Usage } from './usage.ts';

/** Provider call settings (temperature, max output tokens, retries…), as AI SDK names them. */
export interface ModelSettings {
  /** Sampling temperature. */
  temperature?: number;
  /** Maximum output tokens of one model turn. */
  maxOutputTokens?: number;
  /** Nucleus sampling. */
  topP?: number;
  /** Retries of a failed provider call: 408, 409, 429, 5xx or no answer (default 2; backoff from 1 s, doubling, `retry-after` honoured). */
  maxRetries?: number;
  /** Provider-specific options (AI SDK `providerOptions`). */
  providerOptions?: SharedV4ProviderOptions | undefined;
  /** Extra HTTP headers for the provider request. */
  headers?: Record<string, string>;
}

/** One model request. */
export interface ModelStepRequest {
  caller: ModelCaller;
  instructions: string | undefined;
  messages: readonly ModelMessage[];
  tools: readonly Tool[];
  toolChoice?: ToolChoice<ToolSet> | undefined;
  /** Ask the provider for JSON matching a schema (native structured output). */
  responseFormat?: LanguageModelV4CallOptions['responseFormat'];
  signal: AbortSignal;
  turn: number;
  emit: (event: EventPayload) => void;
  /** Receives the text streamed so far (for partial responses at a deadline). */
  onText?: ((text: string) => void) | undefined;
  /** A strict tool the model may call but the loop never executes (structured results, `tool` strategy). */
  terminalTool?: { name: string; description: string; inputSchema: JsonSchema } | undefined;
  /** The settings of this call (default: the caller's). */
  settings?: ModelSettings | undefined;
}

/** A model turn with its retries. */
export interface ModelTurnRequest extends ModelStepRequest {
  /** The run's absolute deadline (epoch ms): no retry wait outlives it. */
  deadline?: number | undefined;
  now?: (() => number) | undefined;
  /** Called before waiting for a retry, with the text the failed attempt had streamed. */
  onRetry?: ((notice: ModelRetryNotice & { readonly partialText: string }) => void) | undefined;
}

/**
 * Runs one model turn, retrying transient failures (`withModelRetries`): a
 * failure while opening the request or while reading its stream repeats the
 * whole attempt, after `onRetry` learns what the failed attempt streamed (the
 * superseded text). Each attempt opens a new message.
 */
export async function runModelTurn(request: ModelTurnRequest): Promise<ModelStepResult> {
  const settings = request.settings ?? request.caller.settings;
  let partialText = '';
  return withModelRetries(
    () => {
      partialText = '';
      return runModelStep({
        ...request,
        onText: (text) => {
          partialText = text;
          request.onText?.(text);
        },
      });
    },
    {
      signal: request.signal,
      policy: settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries },
      deadline: request.deadline,
      now: request.now,
      onRetry: (notice) => {
        request.onText?.('');
        request.onRetry?.({ ...notice, partialText });
      },
    },
  );
}

/** What one model turn produced. */
export interface ModelStepResult {
  text: string;
  reasoning: string;
  toolCalls: ToolCallRequest[];
  finishReason: FinishReason;
  usage: Usage;
  /** The assistant message to append to the conversation (provider metadata kept for continuity). */
  responseMessages: ModelMessage[];
  /** The provider's response id and model, when it sent them. */
  response?: { id?: string | undefined; modelId?: string | undefined } | undefined;
}

/**
 * Runs one model turn: the prompt through AI SDK's conversion, the provider's
 * stream through AI SDK's provider, and its parts into Ghostlight events and
 * the assistant message. Tools are declared, never executed here.
 */
export async function runModelStep(request: ModelStepRequest): Promise<ModelStepResult> {
  const { caller, emit, turn, signal } = request;
  const prompt = await caller.prompt(request.instructions, request.messages, signal);
  const tools = withTerminalTool(caller.tools(request.tools), request.terminalTool);
  const { stream } = await caller.stream({
    prompt,
    ...(tools ? { tools, toolChoice: prepareToolChoice({ toolChoice: request.toolChoice }) } : {}),
    ...(request.responseFormat !== undefined ? { responseFormat: request.responseFormat } : {}),
    abortSignal: signal,
  }, request.settings);

  const messageId = randomId();
  emit({ type: 'message-start', turn, messageId });
  const content = new AssistantContent();
  const toolCalls: ToolCallRequest[] = [];
  const startedCalls = new Set<string>();
  let text = '';
  let reasoning = '';
  let finishReason: FinishReason | undefined;
  let rawFinishReason: string | undefined;
  let usage: Usage | undefined;
  let streamError: unknown;
  let response: ModelStepResult['response'];

  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-start':
        case 'text-end':
          content.text('text', part.id, '', part.providerMetadata, part.type === 'text-end');
          break;
        case 'text-delta':
          content.text('text', part.id, part.delta, part.providerMetadata);
          if (part.delta.length === 0) break;
          text += part.delta;
          request.onText?.(text);
          emit({ type: 'text-delta', turn, messageId, text: part.delta });
          break;
        case 'reasoning-start':
        case 'reasoning-end':
          content.text('reasoning', part.id, '', part.providerMetadata, part.type === 'reasoning-end');
          break;
        case 'reasoning-delta':
          content.text('reasoning', part.id, part.delta, part.providerMetadata);
          if (part.delta.length === 0) break;
          reasoning += part.delta;
          emit({ type: 'reasoning-delta', turn, messageId, text: part.delta });
          break;
        case 'tool-input-start':
          if (part.providerExecuted) break;
          startedCalls.add(part.id);
          emit({ type: 'tool-call-start', turn, toolCallId: part.id, toolName: part.toolName });
          break;
        case 'tool-input-delta':
          if (startedCalls.has(part.id)) emit({ type: 'tool-call-delta', turn, toolCallId: part.id, delta: part.delta });
          break;
        case 'tool-call':
          toolCalls.push(...recordToolCall(part, content, startedCalls, turn, emit));
          break;
        case 'tool-result':
          content.push({
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: { type: 'json', value: (part.result ?? null) as never },
            ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
          } as never);
          break;
        case 'file':
          content.push({
            type: 'file',
            data: part.data as never,
            mediaType: part.mediaType,
            ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
          } as never);
          break;
        case 'finish':
          finishReason = part.finishReason.unified;
          rawFinishReason = part.finishReason.raw;
          usage = fromModelUsage(asLanguageModelUsage(part.usage));
          break;
        case 'error':
          streamError ??= part.error;
          break;
        case 'response-metadata':
          response = { id: part.id, modelId: part.modelId };
          break;
        default:
          break;
      }
    }
  } catch (error) {
    streamError ??= error;
  } finally {
    reader.releaseLock();
  }

  if (signal.aborted) throw abortReason(signal);
  if (streamError !== undefined) throw streamError;
  if (finishReason === undefined) throw new ProtocolError('The model stream ended without a response');
  // Anthropic stops a turn that filled the context window (reported as `length`): compaction can recover it.
  if (rawFinishReason === 'model_context_window_exceeded') throw new ContextWindowOverflowError({ message: 'The model stopped at its context window' });
  emit({ type: 'message-stop', turn, messageId, text, finishReason });
  const message = content.message();
  return {
    text,
    reasoning,
    toolCalls,
    finishReason,
    usage: usage ?? fromModelUsage(undefined),
    responseMessages: message ? [message] : [],
    ...(response ? { response } : {}),
  };
}

function withTerminalTool(tools: LanguageModelV4FunctionTool[] | undefined, terminal: ModelStepRequest['terminalTool']): LanguageModelV4FunctionTool[] | undefined {
  if (!terminal) return tools;
  const declaration: LanguageModelV4FunctionTool = {
    type: 'function',
    name: terminal.name,
    description: terminal.description,
    inputSchema: terminal.inputSchema as LanguageModelV4FunctionTool['inputSchema'],
    strict: true,
  };
  return [...(tools ?? []), declaration];
}

type ToolCallPart = Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>;

function recordToolCall(
  part: ToolCallPart,
  content: AssistantContent,
  startedCalls: Set<string>,
  turn: number,
  emit: (event: EventPayload) => void,
): ToolCallRequest[] {
  const parsed = parseToolInput(part.input);
  content.push({
    type: 'tool-call',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: parsed.ok ? parsed.value : {},
    ...(part.providerExecuted ? { providerExecuted: true } : {}),
    ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}),
  });
  if (part.providerExecuted) return [];
  if (!startedCalls.has(part.toolCallId)) emit({ type: 'tool-call-start', turn, toolCallId: part.toolCallId, toolName: part.toolName });
  const input = parsed.ok ? parsed.value : part.input;
  emit({ type: 'tool-call-stop', turn, toolCallId: part.toolCallId, toolName: part.toolName, input });
  return [{ toolCallId: part.toolCallId, toolName: part.toolName, input, ...(parsed.ok ? {} : { invalidJson: true }) }];
}

function parseToolInput(input: string): { ok: true; value: unknown } | { ok: false } {
  if (input.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(input) };
  } catch {
    return { ok: false };
  }
}
