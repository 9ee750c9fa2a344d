import type { LanguageModel } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';

/** A provider that makes models from ids (AI SDK providers such as `openai` or `anthropic`). */
export interface ModelProvider {
  languageModel(modelId: string): LanguageModel;
}

/** Resolves model names used by agent definitions. */
export interface ModelRegistry {
  /** The model for `name`: a role (`support`) or `provider:model-id`. */
  resolve(name: string): LanguageModel;
  /** What the application declared about the model behind `name` (over the built-in capability table). */
  capabilities?(name: string): ModelCapabilityOverrides | undefined;
}

/** Options of {@link createModelRegistry}. */
export interface ModelRegistryOptions {
  /** Application roles mapped to models, e.g. `{ support: openai('gpt-5-mini') }`. */
  roles?: Record<string, LanguageModel>;
  /** Providers addressed as `provider:model-id`, e.g. `{ openai }`. */
  providers?: Record<string, ModelProvider>;
  /** Capability facts by role or `provider:model-id`, e.g. `{ support: { nativeStructuredOutput: true, tools: true, toolChoice: true } }`. */
  capabilities?: Record<string, ModelCapabilityOverrides>;
}

/**
 * Maps application roles (and `provider:model-id` targets) to AI SDK models,
 * so agent definitions name what they need and the application decides which
 * model serves it.
 *
 * @example
 * const models = createModelRegistry({ roles: { support: anthropic('claude-sonnet-4-5') }, providers: { openai } });
 * const agent = defineAgent({ name: 'support', model: 'support', models });
 */
export function createModelRegistry(options: ModelRegistryOptions): ModelRegistry {
  const roles = { ...options.roles };
  const providers = { ...options.providers };
  const capabilities = { ...options.capabilities };
  return {
    capabilities(name) {
      return Object.hasOwn(capabilities, name) ? capabilities[name] : undefined;
    },
    resolve(name) {
      if (Object.hasOwn(roles, name)) return roles[name]!;
      const separator = name.indexOf(':');
      if (separator > 0) {
        const provider = providers[name.slice(0, separator)];
        if (provider) return provider.languageModel(name.slice(separator + 1));
        throw new ConfigurationError(`No model provider is registered for ${name}`);
      }
      throw new ConfigurationError(`No model is registered for the role ${name}; use a role or provider:model-id`);
    },
  };
}
