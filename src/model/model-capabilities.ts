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

/**
 * The built-in table: the families of the provider packages Ghostlight is
 * tested with. First match wins; anything else is unknown.
 */
const TABLE: readonly Row[] = [
  {
    provider: 'anthropic',
    model: /claude-(?:(?:sonnet|opus|haiku)-4-5|opus-4-1|(?:sonnet|opus)-4-6|opus-4-[78]|(?:sonnet|opus|haiku|fable)-5)/,
    capabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true, inputModalities: DOCUMENTS },
  },
  {
    provider: 'anthropic',
    model: /^claude-/,
    capabilities: { nativeStructuredOutput: false, tools: true, toolChoice: true, inputModalities: DOCUMENTS },
  },
  {
    provider: 'openai',
    model: /^(?:gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4)/,
    capabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true, inputModalities: DOCUMENTS },
  },
  {
    provider: 'google',
    model: /^gemini-/,
    capabilities: {
      nativeStructuredOutput: true,
      tools: true,
      toolChoice: true,
      inputModalities: ['text', 'image', 'pdf', 'file', 'audio', 'video'],
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
