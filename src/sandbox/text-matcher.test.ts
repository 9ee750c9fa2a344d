import { describe, expect, it } from 'vitest';
import { ToolError } from '../tool/tool-error.ts';
import { compileRegex, compileTextMatcher, MAX_PATTERN_LENGTH } from './text-matcher.ts';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(ToolError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a ToolError');
};

describe('compileRegex and compileTextMatcher', () => {
  it('refuses empty, overlong and unsupported patterns with a ToolError', () => {
    expect(refusal(() => compileRegex(''))).toBe('Pattern must not be empty');
    expect(refusal(() => compileTextMatcher(''))).toBe('Pattern must not be empty');
    expect(refusal(() => compileRegex('a'.repeat(MAX_PATTERN_LENGTH + 1)))).toBe('Pattern is too long');
    expect(compileRegex('a'.repeat(MAX_PATTERN_LENGTH)).test('a'.repeat(MAX_PATTERN_LENGTH))).toBe(true);
    expect(refusal(() => compileRegex('(a)\\1'))).toBe('Invalid pattern: backreferences are not supported: `\\1`');
    expect(refusal(() => compileTextMatcher('(?<=a)b'))).toBe('Invalid pattern: lookbehind is not supported: `(?<=`');
    expect(refusal(() => compileTextMatcher('(abc'))).toBe('Invalid pattern: missing closing ): `(abc`');
  });

  it('matches one line at a time, with only \\n ending a line as in grep and sed', () => {
    const crlf = 'failed: 503\r';
    expect(compileTextMatcher('^$').test(crlf)).toBe(false);
    expect(compileTextMatcher('^$').test('')).toBe(true);
    expect(compileTextMatcher('503$').test(crlf)).toBe(false);
    expect(compileTextMatcher('503.$').test(crlf)).toBe(true);
    expect(compileRegex('.*').exec(crlf)?.groups[0]).toBe(crlf);
  });

  it('reads case-insensitive and fixed-string patterns', () => {
    expect(compileTextMatcher('straße', { ignoreCase: true }).test('STRAẞE')).toBe(true);
    expect(compileTextMatcher('a.b', { fixedStrings: true }).test('axb')).toBe(false);
    expect(compileTextMatcher('A.B', { fixedStrings: true, ignoreCase: true }).test('xa.by')).toBe(true);
  });

  it('rules out a whole text only when it lacks a literal every match needs', () => {
    const matcher = compileTextMatcher('\\w+@example\\.com');
    expect(matcher.mayMatch('nothing to see\nhere')).toBe(false);
    expect(matcher.mayMatch('write to\nada@example.com')).toBe(true);
    expect(compileTextMatcher('\\d{3}').mayMatch('no digits')).toBe(true);
  });
});
