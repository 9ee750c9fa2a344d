/** Bytes per approximate token, as the seeds estimate it when no tokenizer is available. */
export const APPROX_BYTES_PER_TOKEN = 4;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Approximate tokens of `text`: its UTF-8 byte length / 4, rounded up. */
export function approxTokenCount(text: string): number {
  return tokensFromBytes(utf8Length(text));
}

/** Approximate tokens for a byte count, rounded up. */
export function tokensFromBytes(bytes: number): number {
  return Math.ceil(bytes / APPROX_BYTES_PER_TOKEN);
}

/** UTF-8 byte length of `text` without allocating when it is ASCII-short. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** The result of a middle truncation. */
export interface Truncation {
  /** The text, truncated or not. */
  text: string;
  /** The approximate token count of the original when it was truncated. */
  originalTokens: number | undefined;
}

/**
 * Keeps `text` within `maxTokens` approximate tokens by removing its middle,
 * on UTF-8 character boundaries, and marking the cut with
 * `…N tokens truncated…`. Text within budget is returned unchanged.
 */
export function truncateMiddle(text: string, maxTokens: number): Truncation {
  const maxBytes = maxTokens * APPROX_BYTES_PER_TOKEN;
  const totalBytes = utf8Length(text);
  if (maxTokens > 0 && totalBytes <= maxBytes) return { text, originalTokens: undefined };

  const bytes = encoder.encode(text);
  let prefixEnd = Math.min(Math.floor(maxBytes / 2), bytes.length);
  while (prefixEnd > 0 && isContinuation(bytes[prefixEnd])) prefixEnd--;
  let suffixStart = Math.max(bytes.length - (maxBytes - Math.floor(maxBytes / 2)), 0);
  while (suffixStart < bytes.length && isContinuation(bytes[suffixStart])) suffixStart++;
  const removed = tokensFromBytes(Math.max(bytes.length - maxBytes, 0));
  const prefix = decoder.decode(bytes.subarray(0, prefixEnd));
  const suffix = decoder.decode(bytes.subarray(suffixStart));
  return { text: `${prefix}…${removed} tokens truncated…${suffix}`, originalTokens: tokensFromBytes(bytes.length) };
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
