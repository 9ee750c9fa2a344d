import { ConfigurationError } from '../error/configuration-error.ts';
import type { ModelCapabilities } from '../model/model-capabilities.ts';
import type { ResultStrategy } from './result-schema.ts';

/**
 * Picks the strategy a run uses for its result schema, before any request.
 *
 * `auto`: unknown capabilities are a `ConfigurationError`; native structured
 * output (with no ordinary tools, or tools supported) gives `provider`; tools
 * with tool choice give `tool`; anything else is a `ConfigurationError`.
 * An explicit `provider` or `tool` on a model known to lack it is a
 * `ConfigurationError` too; on an unknown model it is trusted.
 */
export function resolveStrategy(
  requested: ResultStrategy,
  capabilities: ModelCapabilities,
  identity: string,
  hasOrdinaryTools: boolean,
): 'provider' | 'tool' {
  if (requested === 'provider') {
    if (capabilities.known && !capabilities.nativeStructuredOutput) {
      throw new ConfigurationError(`${identity} does not support provider-native structured output`);
    }
    return 'provider';
  }
  if (requested === 'tool') {
    if (capabilities.known && !(capabilities.tools && capabilities.toolChoice)) {
      throw new ConfigurationError(`${identity} does not support reliable tool-based structured output`);
    }
    return 'tool';
  }
  if (!capabilities.known) {
    throw new ConfigurationError(
      `Structured output capabilities are unavailable for ${identity}; provide model capability metadata or select a strategy explicitly`,
    );
  }
  if (capabilities.nativeStructuredOutput && (!hasOrdinaryTools || capabilities.tools)) return 'provider';
  if (capabilities.tools && capabilities.toolChoice) return 'tool';
  throw new ConfigurationError(`${identity} supports neither provider-native structured output nor reliable tool-based output`);
}
