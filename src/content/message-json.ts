import type { ModelMessage } from 'ai';
import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import { isPlainObject } from '../util/json.ts';

/** The fields that carry bytes in AI SDK message parts. */
const BINARY_FIELDS = ['data', 'image'] as const;

/**
 * Messages as JSON-safe values: every byte field (`data` of files, `image` of
 * images, in user, assistant and tool-result content) becomes base64 text
 * with `"encoding": "base64"` beside it. {@link messagesFromJson} reverses it.
 *
 * @example
 * const stored = JSON.stringify(messagesToJson(run.messages));
 * const restored = messagesFromJson(JSON.parse(stored));
 */
export function messagesToJson(messages: readonly ModelMessage[]): unknown[] {
  return messages.map((message) => encode(message));
}

/** Messages from their JSON form (base64 fields marked `"encoding": "base64"` become bytes again). */
export function messagesFromJson(json: readonly unknown[]): ModelMessage[] {
  return json.map((message) => decode(message)) as ModelMessage[];
}

function encode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(encode);
  if (value instanceof URL) return value.href;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  let binary = false;
  for (const [key, child] of Object.entries(value)) {
    const bytes = child instanceof Uint8Array ? child : child instanceof ArrayBuffer ? new Uint8Array(child) : undefined;
    if (bytes && (BINARY_FIELDS as readonly string[]).includes(key)) {
      out[key] = bytesToBase64(bytes);
      binary = true;
    } else out[key] = encode(child);
  }
  if (binary) out.encoding = 'base64';
  return out;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const base64 = value.encoding === 'base64';
  for (const [key, child] of Object.entries(value)) {
    if (base64 && key === 'encoding') continue;
    out[key] = base64 && (BINARY_FIELDS as readonly string[]).includes(key) && typeof child === 'string' ? base64ToBytes(child) : decode(child);
  }
  return out;
}
