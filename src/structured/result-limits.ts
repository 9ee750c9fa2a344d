import { utf8Length } from '../util/truncate.ts';

/** Structured results larger than this many serialized UTF-8 bytes are rejected. */
export const MAX_RESULT_BYTES = 1_000_000;
/** Structured results nested deeper than this are rejected. */
export const MAX_RESULT_DEPTH = 64;
/** Structured results with more nodes (values and keys) than this are rejected. */
export const MAX_RESULT_NODES = 100_000;

/**
 * Checks the size limits of a structured result (depth 64, 100,000 nodes,
 * 1,000,000 serialized bytes) and returns the problem, if any.
 */
export function resultLimitIssue(value: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [child, depth] = stack.pop()!;
    nodes++;
    if (depth > MAX_RESULT_DEPTH) return 'Structured result exceeds the maximum nesting depth';
    if (nodes > MAX_RESULT_NODES) return 'Structured result exceeds the maximum complexity';
    if (Array.isArray(child)) for (const item of child) stack.push([item, depth + 1]);
    else if (typeof child === 'object' && child !== null) {
      for (const [key, item] of Object.entries(child)) stack.push([key, depth + 1], [item, depth + 1]);
    }
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'Structured result cannot be serialized';
  }
  if (text === undefined) return 'Structured result cannot be serialized';
  if (utf8Length(text) > MAX_RESULT_BYTES) return 'Structured result exceeds the maximum serialized size';
  return undefined;
}
