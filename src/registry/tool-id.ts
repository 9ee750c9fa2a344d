import { ConfigurationError } from '../error/configuration-error.ts';
import { MAX_TOOL_NAME_LENGTH } from '../tool/tool-name.ts';
import { sha256HexSync } from '../util/sha256.ts';

/** What a registry id looks like: a letter, then letters, digits, `_`, `.` and `-` (dots namespace, e.g. `atlas.search`). */
export const TOOL_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;

const MODEL_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
const ALIAS_DIGEST_LENGTH = 12;

/** Throws a `ConfigurationError` unless `id` is a registry tool id. */
export function assertToolId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !TOOL_ID_PATTERN.test(id)) {
    throw new ConfigurationError(`Tool id must match [a-zA-Z][a-zA-Z0-9_.-]*: ${String(id)}`);
  }
}

/**
 * The model-facing name of a registry id. Providers reject dots and names over
 * 64 characters, so `atlas.search` becomes `atlas__search`, and a name still
 * over 64 characters keeps its first 51 characters plus `_` and 12 hex digits
 * of its SHA-256. Ids that are already valid names are used as they are.
 */
export function toolAlias(id: string): string {
  if (id.length <= MAX_TOOL_NAME_LENGTH && MODEL_NAME_PATTERN.test(id)) return id;
  return boundedName(id.replaceAll('.', '__'));
}

/** Keeps a valid model-facing name within 64 characters: a 51-character prefix, `_`, and 12 hex digits of its SHA-256. */
export function boundedName(name: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const digest = sha256HexSync(name).slice(0, ALIAS_DIGEST_LENGTH);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - ALIAS_DIGEST_LENGTH - 1)}_${digest}`;
}
