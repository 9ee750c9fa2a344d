import type { LanguageModel } from 'ai';

/** An input modality a model accepts besides text: `image`, `pdf` (PDF documents), `file` (any document), `audio`, `video`. */
export type InputModality = 'text' | 'image' | 'pdf' | 'file' | 'audio' | 'video';

/**
 * What a model can do, as far as Ghostlight needs to know. AI SDK models do
 * not advertise this, so it comes from a small built-in table
 * ({@link modelCapabilities}) and the application's overrides.
 */
export interface ModelCapabilities {
  /** Whether the capability facts are known at all (unknown models skip the checks that need them). */
  readonly known: boolean;
  /** Provider-native structured output (a JSON Schema response format). */
  readonly nativeStructuredOutput: boolean;
  /** Tool definitions. */
  readonly tools: boolean;
  /** An explicit tool choice (`required`, or one named tool). */
  readonly toolChoice: boolean;
  /** Accepted input modalities; `undefined` means unknown (nothing is checked). */
  readonly inputModalities?: readonly InputModality[];
  /** The model's output-token ceiling; larger `maxOutputTokens` settings are clamped to it. */
  readonly maxOutputTokens?: number;
  /** The model's context window in tokens (input and output); context management compacts against it. */
  readonly contextWindow?: number;
}

/** Application overrides: any subset of the fields (a given field makes the capabilities `known`). */
export type ModelCapabilityOverrides = Partial<ModelCapabilities>;

/** Capabilities of a model nobody described. */
export const UNKNOWN_CAPABILITIES: ModelCapabilities = Object.freeze({
  known: false,
  nativeStructuredOutput: false,
  tools: false,
  toolChoice: false,
});

interface Row {
  readonly provider: string;
  readonly model: RegExp;
  readonly capabilities: Omit<ModelCapabilities, 'known'>;
}

const DOCUMENTS: readonly InputModality[] = ['text', 'image', 'pdf'];

const OPENAI = { nativeStructuredOutput: true, tools: true, toolChoice: true, inputModalities: DOCUMENTS } as const;

/**
 * The built-in table: the families of the provider packages Ghostlight is
 * tested with, with their context windows and output ceilings as the
 * providers publish them (where a family varies, the smallest). First match
 * wins; anything else is unknown (override with `modelCapabilities`).
 */
const TABLE: readonly Row[] = [
  {
    provider: 'anthropic',
    model: /claude-(?:(?:sonnet|opus|haiku)-4-5|opus-4-1|(?:sonnet|opus)-4-6|opus-4-[78]|(?:sonnet|opus|haiku|fable)-5)/,
    capabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true, inputModalities: DOCUMENTS, contextWindow: 200_000 },
  },
  {
    provider: 'anthropic',
    model: /^claude-/,
    capabilities: { nativeStructuredOutput: false, tools: true, toolChoice: true, inputModalities: DOCUMENTS, contextWindow: 200_000 },
  },
  { provider: 'openai', model: /^gpt-4o/, capabilities: { ...OPENAI, contextWindow: 128_000, maxOutputTokens: 16_384 } },
  { provider: 'openai', model: /^gpt-4\.1/, capabilities: { ...OPENAI, contextWindow: 1_047_576, maxOutputTokens: 32_768 } },
  { provider: 'openai', model: /^gpt-5(?:\.\d+)?-chat/, capabilities: { ...OPENAI, contextWindow: 128_000, maxOutputTokens: 16_384 } },
  { provider: 'openai', model: /^gpt-5/, capabilities: { ...OPENAI, contextWindow: 400_000, maxOutputTokens: 128_000 } },
  { provider: 'openai', model: /^(?:o1|o3|o4)/, capabilities: { ...OPENAI, contextWindow: 200_000, maxOutputTokens: 100_000 } },
  {
    provider: 'google',
    model: /^gemini-/,
    capabilities: {
      nativeStructuredOutput: true,
      tools: true,
      toolChoice: true,
      inputModalities: ['text', 'image', 'pdf', 'file', 'audio', 'video'],
      contextWindow: 1_048_576,
    },
  },
];

/**
 * The capabilities of `model`: the built-in table's row for its provider
 * family and model id, with `overrides` on top. A model the table does not
 * know and no override describes is `known: false`.
 *
 * @example
 * modelCapabilities(anthropic('claude-sonnet-4-5')).nativeStructuredOutput // true
 * modelCapabilities(myModel, { nativeStructuredOutput: false, tools: true, toolChoice: true })
 */
export function modelCapabilities(model: LanguageModel, ...overrides: ReadonlyArray<ModelCapabilityOverrides | undefined>): ModelCapabilities {
  let capabilities: ModelCapabilities = lookup(model);
  for (const override of overrides) {
    if (!override) continue;
    capabilities = { ...capabilities, known: true, ...override };
  }
  return Object.freeze(capabilities);
}

/** `provider/model-id` of a model, for messages. */
export function modelIdentity(model: LanguageModel): string {
  if (typeof model === 'string') return model;
  return `${model.provider}/${model.modelId}`;
}

function lookup(model: LanguageModel): ModelCapabilities {
  const provider = typeof model === 'string' ? model.split(/[/:]/)[0] ?? '' : model.provider.split('.')[0] ?? '';
  const modelId = typeof model === 'string' ? model.slice(model.search(/[/:]/) + 1) : model.modelId;
  const row = TABLE.find((candidate) => candidate.provider === provider && candidate.model.test(modelId));
  return row ? { known: true, ...row.capabilities } : UNKNOWN_CAPABILITIES;
}
