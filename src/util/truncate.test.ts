import { describe, expect, it } from 'vitest';
import { approxTokenCount, truncateMiddle, utf8Length } from './truncate.ts';

describe('truncateMiddle', () => {
  it('keeps text within budget unchanged', () => {
    expect(truncateMiddle('short', 10)).toEqual({ text: 'short', originalTokens: undefined });
  });

  it('removes the middle and says how many tokens', () => {
    const { text, originalTokens } = truncateMiddle('a'.repeat(100), 10);
    expect(text).toBe(`${'a'.repeat(20)}…15 tokens truncated…${'a'.repeat(20)}`);
    expect(originalTokens).toBe(25);
  });

  it('never splits a multi-byte character', () => {
    const { text } = truncateMiddle('€'.repeat(100), 10);
    const [prefix, suffix] = text.split(/…\d+ tokens truncated…/);
    expect(prefix).toMatch(/^€+$/);
    expect(suffix).toMatch(/^€+$/);
    expect(utf8Length(prefix!)).toBeLessThanOrEqual(20);
  });

  it('counts UTF-8 bytes, surrogate pairs included', () => {
    expect(utf8Length('a€😀')).toBe(1 + 3 + 4);
    expect(approxTokenCount('abcde')).toBe(2);
  });
});
