import type { LanguageModelUsage } from 'ai';

/**
 * Token counts in AI SDK 7's `LanguageModelUsage` shape and with its
 * meanings: `inputTokens` is every input token (cache reads and writes
 * included, broken down in `inputTokenDetails`), `outputTokens` every output
 * token (reasoning included, broken down in `outputTokenDetails`), and
 * `totalTokens` their sum. Unlike AI SDK's type, every count is a number
 * (0 when the provider did not report it), so usage values add up.
 */
export interface Usage {
  /** All input (prompt) tokens, cached ones included. */
  readonly inputTokens: number;
  /** How the input tokens split. */
  readonly inputTokenDetails: {
    /** Input tokens neither read from nor written to a cache. */
    readonly noCacheTokens: number;
    /** Input tokens read from the provider's cache. */
    readonly cacheReadTokens: number;
    /** Input tokens written to the provider's cache. */
    readonly cacheWriteTokens: number;
  };
  /** All output (completion) tokens, reasoning included. */
  readonly outputTokens: number;
  /** How the output tokens split. */
  readonly outputTokenDetails: {
    /** Text (and tool call) tokens. */
    readonly textTokens: number;
    /** Reasoning tokens. */
    readonly reasoningTokens: number;
  };
  /** `inputTokens + outputTokens`. */
  readonly totalTokens: number;
}

/** The parts a usage value is built from, each counted once. */
export interface UsageParts {
  readonly noCacheTokens?: unknown;
  readonly cacheReadTokens?: unknown;
  readonly cacheWriteTokens?: unknown;
  readonly textTokens?: unknown;
  readonly reasoningTokens?: unknown;
}

/** Builds a usage value from its disjoint parts; negative or invalid counts become 0. */
export function makeUsage(parts: UsageParts = {}): Usage {
  const noCacheTokens = count(parts.noCacheTokens);
  const cacheReadTokens = count(parts.cacheReadTokens);
  const cacheWriteTokens = count(parts.cacheWriteTokens);
  const textTokens = count(parts.textTokens);
  const reasoningTokens = count(parts.reasoningTokens);
  const inputTokens = noCacheTokens + cacheReadTokens + cacheWriteTokens;
  const outputTokens = textTokens + reasoningTokens;
  return {
    inputTokens,
    inputTokenDetails: { noCacheTokens, cacheReadTokens, cacheWriteTokens },
    outputTokens,
    outputTokenDetails: { textTokens, reasoningTokens },
    totalTokens: inputTokens + outputTokens,
  };
}

/** Usage as flat instrumentation attributes, with AI SDK's meanings (totals include cache and reasoning). */
export function usageAttributes(usage: Usage): Record<string, number> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.inputTokenDetails.cacheReadTokens,
    cacheWriteTokens: usage.inputTokenDetails.cacheWriteTokens,
    reasoningTokens: usage.outputTokenDetails.reasoningTokens,
    totalTokens: usage.totalTokens,
  };
}

/** Zero usage. */
export const EMPTY_USAGE: Usage = Object.freeze(makeUsage());

/** Adds two usage values field by field. */
export function addUsage(left: Usage, right: Usage): Usage {
  return makeUsage({
    noCacheTokens: left.inputTokenDetails.noCacheTokens + right.inputTokenDetails.noCacheTokens,
    cacheReadTokens: left.inputTokenDetails.cacheReadTokens + right.inputTokenDetails.cacheReadTokens,
    cacheWriteTokens: left.inputTokenDetails.cacheWriteTokens + right.inputTokenDetails.cacheWriteTokens,
    textTokens: left.outputTokenDetails.textTokens + right.outputTokenDetails.textTokens,
    reasoningTokens: left.outputTokenDetails.reasoningTokens + right.outputTokenDetails.reasoningTokens,
  });
}

/**
 * Converts AI SDK usage. Totals the provider reported win; a detail it did
 * not report is derived from the total (`noCacheTokens = inputTokens - cache
 * reads - cache writes`, `textTokens = outputTokens - reasoningTokens`), so the
 * details always add up to the totals.
 */
export function fromModelUsage(usage: LanguageModelUsage | undefined): Usage {
  const input = usage?.inputTokenDetails;
  const output = usage?.outputTokenDetails;
  const cacheReadTokens = count(input?.cacheReadTokens);
  const cacheWriteTokens = count(input?.cacheWriteTokens);
  const reasoningTokens = count(output?.reasoningTokens);
  return makeUsage({
    noCacheTokens: usage?.inputTokens !== undefined ? count(usage.inputTokens) - cacheReadTokens - cacheWriteTokens : input?.noCacheTokens,
    cacheReadTokens,
    cacheWriteTokens,
    textTokens: usage?.outputTokens !== undefined ? count(usage.outputTokens) - reasoningTokens : output?.textTokens,
    reasoningTokens,
  });
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
