import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { AssistantModelMessage, LanguageModel, ModelMessage } from 'ai';
import {
  asLanguageModelUsage,
  convertToLanguageModelPrompt,
  prepareCallSettings,
  prepareToolChoice,
} from 'ai/internal';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { Tool } from '../tool/tool.ts';
import { createDownloader } from './file-downloads.ts';
import type { FileDownloader } from './file-downloads.ts';
import type { ModelSettings } from './model-step.ts';

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];

/**
 * The provider side of one run's model turns: AI SDK's provider (resolved
 * once), its message conversion (applied once per message, not once per turn),
 * its retries and its stream parts, without the per-call machinery of
 * `streamText` that a loop we own does not need.
 */
export class ModelCaller {
  readonly model: LanguageModelV4;
  readonly #settings: ModelSettings;
  readonly #download: ReturnType<typeof createDownloader>;
  readonly #convertedMessages: LanguageModelV4Message[] = [];
  #convertedFrom: ModelMessage[] = [];
  #instructions: { text: string | undefined; converted: LanguageModelV4Message[] } | undefined;
  #tools: { source: readonly Tool[]; prepared: LanguageModelV4FunctionTool[] } | undefined;

  #signal: AbortSignal | undefined;

  constructor(model: LanguageModel, settings: ModelSettings, downloads?: FileDownloader) {
    this.model = languageModelV4(model);
    this.#settings = settings;
    this.#download = createDownloader(downloads, () => this.#signal ?? new AbortController().signal);
  }

  /** The provider prompt for `messages`, converting only what was not converted before. */
  async prompt(instructions: string | undefined, messages: readonly ModelMessage[], signal: AbortSignal): Promise<LanguageModelV4Message[]> {
    const supportedUrls = await this.model.supportedUrls;
    this.#signal = signal;
    const reusable = this.#reusablePrefix(messages);
    if (reusable < this.#convertedFrom.length) {
      this.#convertedMessages.length = 0;
      this.#convertedFrom = [];
    }
    if (messages.length > this.#convertedFrom.length) {
      const fresh = messages.slice(this.#convertedFrom.length);
      const converted = await convertToLanguageModelPrompt({
        prompt: { messages: fresh, instructions: undefined },
        supportedUrls,
        // Never AI SDK's default download (any URL, 2 GiB, redirects followed): only what `downloads` allows.
        download: this.#download,
        abortSignal: signal,
        provider: this.model.provider,
      });
      this.#convertedMessages.push(...converted);
      this.#convertedFrom = [...messages];
    }
    let system = this.#instructions;
    if (!system || system.text !== instructions) {
      system = { text: instructions, converted: instructions ? [{ role: 'system', content: instructions }] : [] };
      this.#instructions = system;
    }
    return [...system.converted, ...this.#convertedMessages];
  }

  /** Function-tool declarations for the provider, prepared once per tool list. */
  tools(tools: readonly Tool[]): LanguageModelV4FunctionTool[] | undefined {
    if (tools.length === 0) return undefined;
    if (this.#tools?.source !== tools) {
      this.#tools = {
        source: tools,
        prepared: tools.map((tool) => ({
          type: 'function',
          name: tool.name,
          description: tool.description,
          inputSchema: tool.input.jsonSchema as LanguageModelV4FunctionTool['inputSchema'],
        })),
      };
    }
    return this.#tools.prepared;
  }

  /** The settings the run's turns use unless a hook replaces them. */
  get settings(): ModelSettings {
    return this.#settings;
  }

  /**
   * Opens the provider stream for one attempt. Retries are the turn's
   * (`withModelRetries` around the whole attempt, stream included), never AI
   * SDK's retry helper.
   */
  async stream(
    options: Omit<LanguageModelV4CallOptions, keyof ReturnType<typeof prepareCallSettings>> & { abortSignal: AbortSignal },
    settings: ModelSettings = this.#settings,
  ) {
    const { reasoning, ...callSettings } = prepareCallSettings({
      ...(settings.maxOutputTokens !== undefined ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
    });
    return this.model.doStream({
      ...callSettings,
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...options,
      ...(settings.headers !== undefined ? { headers: settings.headers } : {}),
      ...(settings.providerOptions !== undefined ? { providerOptions: settings.providerOptions } : {}),
    });
  }

  #reusablePrefix(messages: readonly ModelMessage[]): number {
    const cached = this.#convertedFrom;
    const length = Math.min(cached.length, messages.length);
    for (let index = 0; index < length; index++) if (cached[index] !== messages[index]) return index;
    return length;
  }
}

/**
 * The model as the provider spec's v4 interface, which every AI SDK 7 provider
 * package implements. Read directly rather than through AI SDK's
 * `resolveLanguageModel`, whose string branch (the global provider, AI
 * Gateway) would otherwise be bundled into every application; string names
 * are resolved by Ghostlight's model registry before this point.
 */
function languageModelV4(model: LanguageModel): LanguageModelV4 {
  if (typeof model === 'object' && model !== null && (model as { specificationVersion?: unknown }).specificationVersion === 'v4') {
    return model as LanguageModelV4;
  }
  const version = typeof model === 'object' && model !== null ? String((model as { specificationVersion?: unknown }).specificationVersion) : typeof model;
  throw new ConfigurationError(
    `The model must implement the v4 language model specification of AI SDK 7 provider packages (got ${version}); name models by string only through createModelRegistry`,
  );
}

/** Accumulates one turn's stream parts into the assistant message AI SDK would have built. */
export class AssistantContent {
  readonly parts: AssistantPart[] = [];
  readonly #open = new Map<string, { type: 'text' | 'reasoning'; text: string; providerOptions?: SharedV4ProviderMetadata }>();

  /** Records a text or reasoning part (start, delta or end); provider metadata: the latest wins. */
  text(kind: 'text' | 'reasoning', id: string, delta: string, metadata: SharedV4ProviderMetadata | undefined, end = false): void {
    const key = `${kind}:${id}`;
    let part = this.#open.get(key);
    if (!part) {
      part = { type: kind, text: '' };
      this.#open.set(key, part);
      this.parts.push(part as AssistantPart);
    }
    part.text += delta;
    if (metadata !== undefined) part.providerOptions = metadata;
    if (end) this.#open.delete(key);
  }

  /** Records any other part as it should appear in the assistant message. */
  push(part: AssistantPart): void {
    this.parts.push(part);
  }

  /** The assistant message, or nothing when the turn produced no content. */
  message(): AssistantModelMessage | undefined {
    const content = this.parts.filter((part) => part.type !== 'text' || part.text.length > 0 || part.providerOptions !== undefined);
    return content.length > 0 ? { role: 'assistant', content } : undefined;
  }
}

export { asLanguageModelUsage, prepareToolChoice };
export type { LanguageModelV4StreamPart };
