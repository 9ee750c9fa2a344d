import type { RE2JS } from 're2js';
import { ToolError } from '../tool/tool-error.ts';

/** How a search pattern is read. */
export interface TextMatchOptions {
  /** Match letters regardless of case. */
  readonly ignoreCase?: boolean | undefined;
  /** Treat the pattern as literal text instead of a regular expression. */
  readonly fixedStrings?: boolean | undefined;
}

/** Tests text (a whole file or one line) against a compiled pattern. */
export interface TextMatcher {
  test(text: string): boolean;
}

/** The longest search pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 10_000;

let engine: Promise<typeof import('re2js')> | undefined;

/**
 * Loads the linear-time regular expression engine (RE2, ported to
 * JavaScript) on first use. Model-written patterns never run on a
 * backtracking engine, so no pattern can hang a run (LittleGhost bounds
 * regex time; RE2 needs no bound).
 */
export function loadRegexEngine(): Promise<typeof import('re2js')> {
  engine ??= import('re2js');
  return engine;
}

/** Compiles a model-written regular expression; a malformed one is a `ToolError`. */
export async function compileRegex(pattern: string, options: { ignoreCase?: boolean | undefined; multiline?: boolean } = {}): Promise<RE2JS> {
  if (typeof pattern !== 'string' || pattern.length === 0) throw new ToolError('Pattern must not be empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new ToolError('Pattern is too long');
  const { RE2JS } = await loadRegexEngine();
  const flags = (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (options.multiline ? RE2JS.MULTILINE : 0);
  try {
    return RE2JS.compile(pattern, flags);
  } catch (error) {
    throw new ToolError(`Invalid pattern: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Compiles a search pattern into a matcher. */
export async function compileTextMatcher(pattern: string, options: TextMatchOptions = {}): Promise<TextMatcher> {
  if (typeof pattern !== 'string' || pattern.length === 0) throw new ToolError('Pattern must not be empty');
  if (options.fixedStrings) {
    if (!options.ignoreCase) return { test: (text) => text.includes(pattern) };
    const lower = pattern.toLowerCase();
    return { test: (text) => text.toLowerCase().includes(lower) };
  }
  const compiled = await compileRegex(pattern, { ignoreCase: options.ignoreCase, multiline: true });
  return { test: (text) => compiled.test(text) };
}
