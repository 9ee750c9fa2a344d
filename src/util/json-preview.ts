/** What a value too large to keep becomes in records and events: the start of its JSON text. */
export interface TruncatedValue {
  readonly truncated: true;
  /** The first characters of the value's JSON text. */
  readonly preview: string;
}

/** The JSON characters a record or event keeps of one value before it becomes a {@link TruncatedValue}. */
export const PREVIEW_CHARS = 8_192;

/**
 * The value itself when its JSON text has at most `maxChars` characters,
 * otherwise `{ truncated: true, preview }` with the first `maxChars` of that
 * text. The size is measured by walking the value and stops at the limit, so
 * a 16 MiB argument costs nothing to preview. Values JSON cannot represent
 * (cycles, BigInts) are previewed as far as they go.
 */
export function boundedValue(value: unknown, maxChars: number = PREVIEW_CHARS): unknown {
  const writer = new BoundedJson(maxChars);
  writer.write(value, new Set());
  return writer.overflowed ? Object.freeze({ truncated: true as const, preview: writer.text }) : value;
}

/** A JSON writer that stops once it has written `limit` characters. */
class BoundedJson {
  readonly #limit: number;
  #parts: string[] = [];
  #length = 0;
  overflowed = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get text(): string {
    return this.#parts.join('');
  }

  write(value: unknown, seen: Set<object>): void {
    if (this.overflowed) return;
    if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol') return this.#emit('null');
    if (typeof value === 'string') return this.#string(value);
    if (typeof value === 'number') return this.#emit(Number.isFinite(value) ? String(value) : 'null');
    if (typeof value === 'boolean') return this.#emit(String(value));
    if (typeof value === 'bigint') return this.#emit(value.toString().slice(0, this.#limit + 1));
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return this.write(toJson.call(value), seen);
    const object = value as object;
    if (seen.has(object)) return this.#emit('"[Circular]"');
    seen.add(object);
    try {
      if (Array.isArray(object)) {
        this.#emit('[');
        for (let index = 0; index < object.length && !this.overflowed; index++) {
          if (index > 0) this.#emit(',');
          this.write(object[index], seen);
        }
        return this.#emit(']');
      }
      this.#emit('{');
      let first = true;
      for (const key in object) {
        if (this.overflowed) return;
        if (!Object.hasOwn(object, key)) continue;
        const child = (object as Record<string, unknown>)[key];
        if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
        if (!first) this.#emit(',');
        first = false;
        this.#string(key);
        this.#emit(':');
        this.write(child, seen);
      }
      this.#emit('}');
    } finally {
      seen.delete(object);
    }
  }

  #string(value: string): void {
    // Escape only the piece that can still fit: a huge string costs its first `limit` characters.
    const room = this.#limit - this.#length;
    this.#emit(JSON.stringify(value.length > room ? value.slice(0, Math.max(0, room)) : value));
    if (value.length > room) this.overflowed = true;
  }

  #emit(piece: string): void {
    const room = this.#limit - this.#length;
    if (piece.length > room) {
      this.#parts.push(piece.slice(0, Math.max(0, room)));
      this.#length = this.#limit;
      this.overflowed = true;
      return;
    }
    this.#parts.push(piece);
    this.#length += piece.length;
  }
}
