import { ConfigurationError } from '../error/configuration-error.ts';

/** Options of {@link manageContext}; every field has LittleGhost's default. */
export interface ManageContextOptions {
  /**
   * The context window to compact against, in tokens (default 200,000). The
   * model's own window wins when its capabilities know one (the built-in table
   * or the agent's `modelCapabilities.contextWindow`).
   */
  readonly contextWindowTokens?: number | undefined;
  /** Compact when the estimated request reaches this share of the window (0 < x ≤ 1, default 0.85). */
  readonly compressionThreshold?: number | undefined;
  /** The share of the conversation's messages summarised at once (0.1–0.8, default 0.3). */
  readonly summaryRatio?: number | undefined;
  /** Messages at the end of the conversation never summarised (at least 2, default 10). */
  readonly preserveRecentMessages?: number | undefined;
}

/** Options with every default filled in. */
export type ContextSettings = Required<{ [KEY in keyof ManageContextOptions]: number }>;

/** LittleGhost's defaults (SPEC A17). */
export const CONTEXT_DEFAULTS: ContextSettings = Object.freeze({
  contextWindowTokens: 200_000,
  compressionThreshold: 0.85,
  summaryRatio: 0.3,
  preserveRecentMessages: 10,
});

/** Fills the defaults and checks every value; a bad one is a `ConfigurationError` naming it. */
export function resolveContextOptions(options: ManageContextOptions = {}): ContextSettings {
  const known = new Set(Object.keys(CONTEXT_DEFAULTS));
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new ConfigurationError(`Unknown manageContext option: ${key}`);
  }
  const settings = { ...CONTEXT_DEFAULTS };
  for (const key of Object.keys(CONTEXT_DEFAULTS) as Array<keyof ContextSettings>) {
    const value = options[key];
    if (value !== undefined) settings[key] = value;
  }
  const { contextWindowTokens, compressionThreshold, summaryRatio, preserveRecentMessages } = settings;
  if (!Number.isInteger(contextWindowTokens) || contextWindowTokens <= 0) throw new ConfigurationError('contextWindowTokens must be a positive integer');
  if (!Number.isFinite(compressionThreshold) || compressionThreshold <= 0 || compressionThreshold > 1) {
    throw new ConfigurationError('compressionThreshold must be between 0 and 1');
  }
  if (!Number.isFinite(summaryRatio) || summaryRatio < 0.1 || summaryRatio > 0.8) throw new ConfigurationError('summaryRatio must be between 0.1 and 0.8');
  if (!Number.isInteger(preserveRecentMessages) || preserveRecentMessages < 2) throw new ConfigurationError('preserveRecentMessages must be at least 2');
  return Object.freeze(settings);
}
