import { ToolError } from '../tool/tool-error.ts';
import { LinearRegex } from './regex/linear-regex.ts';
import { RegexSyntaxError } from './regex/regex-syntax-error.ts';

/** How a search pattern is read. */
export interface TextMatchOptions {
  /** Match letters regardless of case. */
  readonly ignoreCase?: boolean | undefined;
  /** Treat the pattern as literal text instead of a regular expression. */
  readonly fixedStrings?: boolean | undefined;
}

/** Tests lines against a compiled pattern. */
export interface TextMatcher {
  /** Whether one line matches (`^` and `$` match at its start and end). */
  test(line: string): boolean;
  /** False only when no line of `text` can match: a quick check before splitting a file into lines. */
  mayMatch(text: string): boolean;
}

/** The longest search pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 10_000;

/**
 * Compiles a model-written regular expression for the linear-time engine
 * (regex/linear-regex.ts): model-written patterns never run on a
 * backtracking engine, so no pattern can hang a run (LittleGhost bounds
 * regex time; a linear-time engine needs no bound). Only `\n` ends a line,
 * as in grep and sed. An empty, overlong or malformed pattern, or one using
 * what the engine refuses (backreferences, lookaround), is a `ToolError`
 * ("Invalid pattern: …").
 */
export function compileRegex(pattern: string, options: { ignoreCase?: boolean | undefined; multiline?: boolean } = {}): LinearRegex {
  if (typeof pattern !== 'string' || pattern.length === 0) throw new ToolError('Pattern must not be empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new ToolError('Pattern is too long');
  try {
    return new LinearRegex(pattern, { ...options, newlineOnly: true });
  } catch (error) {
    if (RegexSyntaxError.isInstance(error)) throw new ToolError(`Invalid pattern: ${error.message}`, { cause: error });
    throw error;
  }
}

/** Compiles a search pattern into a matcher. */
export function compileTextMatcher(pattern: string, options: TextMatchOptions = {}): TextMatcher {
  if (typeof pattern !== 'string' || pattern.length === 0) throw new ToolError('Pattern must not be empty');
  if (options.fixedStrings) {
    if (!options.ignoreCase) {
      const test = (text: string) => text.includes(pattern);
      return { test, mayMatch: test };
    }
    const lower = pattern.toLowerCase();
    const test = (text: string) => text.toLowerCase().includes(lower);
    return { test, mayMatch: test };
  }
  const compiled = compileRegex(pattern, { ignoreCase: options.ignoreCase });
  return { test: (line) => compiled.test(line), mayMatch: (text) => compiled.mayMatch(text) };
}
