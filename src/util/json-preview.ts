/** What a value too large to keep becomes in records and events: the start of its JSON text. */
export interface TruncatedValue {
  readonly truncated: true;
  /** The first characters of the value's JSON text (long strings, arrays and objects cut short). */
  readonly preview: string;
}

/** The JSON characters a record or event keeps of one value before it becomes a {@link TruncatedValue}. */
export const PREVIEW_CHARS = 8_192;

/**
 * The value itself when its JSON text is about `maxChars` characters or
 * fewer, otherwise `{ truncated: true, preview }` with the first `maxChars`
 * of the JSON of a cut-down copy. Measuring walks the value only until the
 * limit and the copy is cut as it is written, so a 16 MiB argument costs
 * little more than its first `maxChars` characters.
 */
export function boundedValue(value: unknown, maxChars: number = PREVIEW_CHARS): unknown {
  let room = maxChars;
  const fits = (node: unknown, depth: number): boolean => {
    if (typeof node === 'string') room -= node.length + 2;
    else if (typeof node === 'object' && node !== null && typeof (node as { toJSON?: unknown }).toJSON !== 'function') {
      if (depth > 64) return false;
      room -= 2;
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        room -= key.length + 4;
        if (room < 0 || !fits((node as Record<string, unknown>)[key], depth + 1)) return false;
      }
    } else room -= 8;
    return room >= 0;
  };
  if (fits(value, 0)) return value;
  let nodes = 0;
  let preview = '';
  try {
    preview =
      JSON.stringify(value, (_key, node: unknown) => {
        if (++nodes > maxChars / 4) return undefined;
        if (typeof node === 'string' && node.length > maxChars) return node.slice(0, maxChars);
        if (Array.isArray(node) && node.length > maxChars / 4) return node.slice(0, maxChars / 4);
        return node;
      }) ?? '';
  } catch {
    // A cycle or a BigInt: the preview stays empty.
  }
  return Object.freeze({ truncated: true as const, preview: preview.slice(0, maxChars) });
}
