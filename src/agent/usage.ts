import type { LanguageModelUsage } from 'ai';

/**
 * Token counts, partitioned so they can be added without double counting:
 * `inputTokens` excludes cache reads and writes, `outputTokens` excludes
 * reasoning, and `totalTokens` is the sum of the five.
 */
export interface Usage {
  /** Input tokens that were neither read from nor written to a cache. */
  readonly inputTokens: number;
  /** Output tokens, reasoning excluded. */
  readonly outputTokens: number;
  /** Input tokens read from the provider's cache. */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's cache. */
  readonly cacheWriteTokens: number;
  /** Reasoning tokens. */
  readonly reasoningTokens: number;
  /** The sum of the five fields above. */
  readonly totalTokens: number;
}

/** Zero usage. */
export const EMPTY_USAGE: Usage = Object.freeze(makeUsage(0, 0, 0, 0, 0));

/** Builds a usage value; negative or invalid counts become 0. */
export function makeUsage(
  inputTokens: unknown,
  outputTokens: unknown,
  cacheReadTokens: unknown = 0,
  cacheWriteTokens: unknown = 0,
  reasoningTokens: unknown = 0,
): Usage {
  const fields = {
    inputTokens: count(inputTokens),
    outputTokens: count(outputTokens),
    cacheReadTokens: count(cacheReadTokens),
    cacheWriteTokens: count(cacheWriteTokens),
    reasoningTokens: count(reasoningTokens),
  };
  return {
    ...fields,
    totalTokens:
      fields.inputTokens + fields.outputTokens + fields.cacheReadTokens + fields.cacheWriteTokens + fields.reasoningTokens,
  };
}

/** Adds two usage values field by field. */
export function addUsage(left: Usage, right: Usage): Usage {
  return makeUsage(
    left.inputTokens + right.inputTokens,
    left.outputTokens + right.outputTokens,
    left.cacheReadTokens + right.cacheReadTokens,
    left.cacheWriteTokens + right.cacheWriteTokens,
    left.reasoningTokens + right.reasoningTokens,
  );
}

/** Converts AI SDK usage, splitting cache and reasoning tokens out of the totals. */
export function fromModelUsage(usage: LanguageModelUsage | undefined): Usage {
  if (!usage) return EMPTY_USAGE;
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? 0;
  const input = usage.inputTokenDetails?.noCacheTokens ?? (usage.inputTokens ?? 0) - cacheRead - cacheWrite;
  const output = usage.outputTokenDetails?.textTokens ?? (usage.outputTokens ?? 0) - reasoning;
  return makeUsage(input, output, cacheRead, cacheWrite, reasoning);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
