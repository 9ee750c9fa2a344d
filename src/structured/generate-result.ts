import { generateText, jsonSchema } from 'ai';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { modelCapabilities, modelIdentity } from '../model/model-capabilities.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import { resultSchemaFor } from './prepare-structured-result.ts';
import { resolveStrategy } from './resolve-strategy.ts';
import type { ResultDeclaration } from './result-schema.ts';
import { StructuredResultController } from './structured-result-controller.ts';
import type { StructuredTurn } from './structured-result-controller.ts';

/** Options of {@link generateResult}. */
export interface GenerateResultOptions {
  /** An AI SDK language model. */
  readonly model: LanguageModel;
  /** The result schema (a schema, or `{ schema, name, description, strategy }`). */
  readonly result: ResultDeclaration;
  /** The request: text, or messages. */
  readonly prompt: string | readonly ModelMessage[];
  /** System instructions. */
  readonly instructions?: string;
  /** What the model can do, over the built-in capability table. */
  readonly modelCapabilities?: ModelCapabilityOverrides;
  /** Names the default schema (`<name>_result`); default `generation`. */
  readonly name?: string;
  /** Sampling temperature, output ceiling, provider options, headers, AI SDK retries. */
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly providerOptions?: Record<string, Record<string, never>>;
  readonly headers?: Record<string, string>;
  readonly maxRetries?: number;
  readonly abortSignal?: AbortSignal;
}

/** What {@link generateResult} returns. */
export interface GeneratedResult<T = unknown> {
  /** The checked value. */
  readonly output: T;
  /** The schema's name. */
  readonly schemaName: string;
  /** Whether the one repair turn was needed. */
  readonly repaired: boolean;
}

/**
 * Asks a model once (no agent, no run, no tools of its own) for a value that
 * matches a result schema, without streaming: the same strategies, checks and
 * single repair turn as a structured agent. Throws `StructuredResultError`
 * when the repair fails too, `ConfigurationError` for a bad schema or an
 * incapable model.
 *
 * @example
 * const { output } = await generateResult({ model, result: v.strictObject({ city: v.string() }), prompt: 'Where is the Eiffel Tower?' });
 */
export async function generateResult<T = unknown>(options: GenerateResultOptions): Promise<GeneratedResult<T>> {
  const schema = resultSchemaFor(options.result, options.name ?? 'generation');
  const capabilities = modelCapabilities(options.model, options.modelCapabilities);
  const controller = new StructuredResultController(schema, resolveStrategy(schema.strategy, capabilities, modelIdentity(options.model), false));
  const messages: ModelMessage[] = typeof options.prompt === 'string' ? [{ role: 'user', content: options.prompt }] : [...options.prompt];
  for (let attempt = 0; attempt < 2; attempt++) {
    const repaired = controller.repairing;
    const decision = await controller.conclude(await generateTurn(options, controller, messages));
    if (decision.kind === 'complete') return { output: decision.value as T, schemaName: schema.name, repaired };
    if (decision.kind === 'repair') messages.push(...decision.messages);
  }
  throw controller.turnLimitError();
}

async function generateTurn(options: GenerateResultOptions, controller: StructuredResultController, messages: ModelMessage[]): Promise<StructuredTurn> {
  const terminal = controller.terminalTool();
  const tools: ToolSet | undefined = terminal
    ? { [terminal.name]: { description: terminal.description, inputSchema: jsonSchema(terminal.inputSchema as never), strict: true } }
    : undefined;
  const format = controller.responseFormat();
  const output = format && {
    name: 'object',
    responseFormat: Promise.resolve(format),
    parseCompleteOutput: async ({ text }: { text: string }) => text,
    parsePartialOutput: async ({ text }: { text: string }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
  const toolChoice = controller.toolChoice();
  try {
    const result = await generateText({
      model: options.model,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      messages,
      ...(tools ? { tools } : {}),
      ...(toolChoice !== undefined ? { toolChoice } : {}),
      ...(output ? { output } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.providerOptions !== undefined ? { providerOptions: options.providerOptions } : {}),
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.abortSignal !== undefined ? { abortSignal: options.abortSignal } : {}),
    });
    const toolCalls: ToolCallRequest[] = result.toolCalls.map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      ...(call.invalid ? { invalidJson: true } : {}),
    }));
    return { text: result.text, toolCalls, finishReason: result.finishReason, responseMessages: result.response.messages };
  } catch (error) {
    const content = (error as { name?: string; content?: Array<{ type: string; text?: string }> }).content;
    if ((error as { name?: string }).name !== 'AI_ToolChoiceViolationError' || !content) throw error;
    const text = content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
    return { text, toolCalls: [], finishReason: 'stop', responseMessages: [] };
  }
}
