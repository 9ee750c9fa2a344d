import { nestsDeeper } from '../util/json.ts';
import { SessionStoreError } from './session-errors.ts';

/**
 * The deepest nesting a stored session value may have. Deeper values are
 * refused before they are written (`SessionStoreError`), because a value that
 * is stored but cannot be read back would make the session unloadable forever.
 */
export const MAX_SESSION_JSON_DEPTH = 100;

/** Throws `SessionStoreError` when `value` nests deeper than {@link MAX_SESSION_JSON_DEPTH}. */
export function checkSessionDepth(value: unknown): void {
  if (nestsDeeper(value, MAX_SESSION_JSON_DEPTH)) {
    throw new SessionStoreError(`The conversation holds a value nested more than ${MAX_SESSION_JSON_DEPTH} levels deep; it was not saved`);
  }
}

/**
 * A deep JSON copy of a session value: binary data (`Uint8Array`,
 * `ArrayBuffer`) becomes base64 text, which AI SDK accepts wherever it
 * accepts bytes, and `URL`s become their text.
 */
export function sessionJson<T>(value: T): T {
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, item: unknown) {
    const original = key === '' ? item : this[key];
    if (original instanceof Uint8Array) return toBase64(original);
    if (original instanceof ArrayBuffer) return toBase64(new Uint8Array(original));
    return item;
  });
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
