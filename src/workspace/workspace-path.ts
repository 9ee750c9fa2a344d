import { WorkspaceError } from './workspace-error.ts';

/** The scheme of named workspace references: `workspace://NAME/path`. */
export const WORKSPACE_SCHEME = 'workspace://';

/** Names of workspace paths: letters, digits, `_` and `-`. */
export const WORKSPACE_PATH_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest reference accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4096;

/** The longest single file or directory name accepted, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

/** A reference split into the named path it starts from and a normalised relative path. */
export interface ParsedReference {
  /** The named path (`workspace://NAME/…`), or `undefined` for a root-relative reference. */
  readonly name: string | undefined;
  /** The normalised path below that base: segments joined by `/`, `''` for the base itself. */
  readonly path: string;
}

const encoder = new TextEncoder();
// Control characters, and percent-encodings of `.`, `/`, `\` and NUL: refused rather than guessed at.
const CONTROL = /[\u0001-\u001f\u007f]/;
const ENCODED_SEPARATOR = /%(2e|2f|5c|00)/i;
const OTHER_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * Parses a logical workspace reference: root-relative (`notes/today.md`) or
 * named (`workspace://skills/a/SKILL.md`). Host paths, traversal, NUL and
 * control characters, backslashes and encoded separators are refused with a
 * `WorkspaceError` whose message names the rule, never a host path.
 */
export function parseReference(reference: unknown): ParsedReference {
  if (typeof reference !== 'string') throw invalid('workspace paths must be text');
  if (reference.includes('\0')) throw invalid('Path contains a null byte');
  if (CONTROL.test(reference)) throw invalid('workspace path must not contain control characters');
  if (reference.includes('\\')) throw invalid('workspace path must not contain backslashes');
  if (reference.length * 3 > MAX_PATH_BYTES && encoder.encode(reference).length > MAX_PATH_BYTES) throw invalid('workspace path is too long');

  let name: string | undefined;
  let relative = reference;
  if (reference.startsWith(WORKSPACE_SCHEME)) {
    const logical = reference.slice(WORKSPACE_SCHEME.length);
    const slash = logical.indexOf('/');
    name = slash === -1 ? logical : logical.slice(0, slash);
    if (!WORKSPACE_PATH_NAME.test(name)) throw new WorkspaceError('unknown-path', 'workspace path must name a configured path');
    relative = slash === -1 ? '' : logical.slice(slash + 1);
  } else if (reference.startsWith('/') || OTHER_SCHEME.test(reference)) {
    throw invalid('workspace paths must be relative or use workspace://');
  } else if (reference.length === 0) {
    throw invalid('workspace path must not be empty');
  }
  return { name, path: normalizeSegments(relative) };
}

/**
 * Normalises a relative path inside the workspace: drops empty and `.`
 * segments and refuses `..`, encoded separators and overlong names.
 */
export function normalizeSegments(relative: string): string {
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw invalid('workspace path traversal is not allowed');
    if (segment.includes('%') && ENCODED_SEPARATOR.test(segment)) throw invalid('workspace path must not contain encoded separators');
    // A UTF-16 unit is at most 3 UTF-8 bytes, so only long names need encoding to be measured.
    if (segment.length * 3 > MAX_NAME_BYTES && encoder.encode(segment).length > MAX_NAME_BYTES) throw invalid('workspace path name is too long');
    segments.push(segment);
  }
  return segments.join('/');
}

/** Joins a base path and a child path (either may be `''`). */
export function joinPath(base: string, child: string): string {
  if (base === '') return child;
  if (child === '') return base;
  return `${base}/${child}`;
}

/** The parent of a normalised path (`''` for a top-level entry). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The last segment of a normalised path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether `path` is `base` or lies beneath it. */
export function isWithin(path: string, base: string): boolean {
  return base === '' || path === base || path.startsWith(`${base}/`);
}

const SURROGATE = /[\ud800-\udfff]/;

/** Sorts names by code point (UTF-8 byte order); the plain string sort gives that order unless surrogates are present. */
export function sortNames(names: string[]): string[] {
  return names.some((name) => SURROGATE.test(name)) ? names.sort(compareCodePoints) : names.sort();
}

/** Compares by Unicode code point, which is also UTF-8 byte order (the order `list_files` uses). */
export function compareCodePoints(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.codePointAt(index)!;
    const b = right.codePointAt(index)!;
    if (a !== b) return a - b;
    if (a > 0xffff) index++;
  }
  return left.length - right.length;
}

function invalid(message: string): WorkspaceError {
  return new WorkspaceError('invalid-path', message);
}
