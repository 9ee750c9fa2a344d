import { ToolError } from '../tool/tool-error.ts';

/** The longest cursor `list_subagents` accepts, in bytes. */
export const MAX_CURSOR_BYTES = 512;

/** An opaque `list_subagents` cursor: where the page ended (`updated_at`, `subagent_id`). */
export function encodeCursor(updatedAt: string, subagentId: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([updatedAt, subagentId]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Reads a cursor back; anything not made by {@link encodeCursor} is a model-facing `ToolError`. */
export function decodeCursor(cursor: string): [string, string] {
  const invalid = () => new ToolError('Invalid subagent list cursor');
  if (new TextEncoder().encode(cursor).length > MAX_CURSOR_BYTES || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    const binary = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (character) => character.charCodeAt(0))));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((part) => typeof part === 'string')) throw invalid();
  return value as [string, string];
}
