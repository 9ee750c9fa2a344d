import { describe, expect, it } from 'vitest';
import { MAX_PROGRESS_CHARS, progressText } from './progress-text.ts';

describe('progress text', () => {
  it('collapses spaces, control and format characters into single spaces', () => {
    expect(progressText('  Looking\n\n at\tthe\u200bfiles \u00a0 now  ')).toBe('Looking at the files now');
  });

  it('keeps at most 160 characters, read from at most 4,096', () => {
    expect(progressText('word '.repeat(100))).toHaveLength(MAX_PROGRESS_CHARS);
    expect(progressText(`${' '.repeat(4_096)}late text`)).toBe('');
    expect(progressText(`${'\n'.repeat(4_000)}early`)).toBe('early');
  });
});
