import { describe, expect, it } from 'vitest';
import { boundedValue } from './json-preview.ts';

describe('boundedValue', () => {
  it('keeps small values as they are (the same reference)', () => {
    const value = { a: [1, 2, { b: 'c' }], d: null };
    expect(boundedValue(value, 100)).toBe(value);
    expect(boundedValue('short', 100)).toBe('short');
  });

  it('replaces a value whose JSON is too long with the start of a cut-down copy', () => {
    const big = { big: 'x'.repeat(16 * 1024 * 1024), i: 1 };
    const kept = boundedValue(big, 1_000) as { truncated: true; preview: string };
    expect(kept.truncated).toBe(true);
    expect(kept.preview.length).toBe(1_000);
    expect(kept.preview.startsWith('{"big":"xxx')).toBe(true);
  });

  it('bounds wide arrays and objects, and survives cycles and BigInts', () => {
    const wide = Array.from({ length: 1_000_000 }, (_, index) => index);
    expect(JSON.stringify(boundedValue(wide, 1_000)).length).toBeLessThan(1_100);
    const cyclic: Record<string, unknown> = { pad: 'y'.repeat(2_000) };
    cyclic.self = cyclic;
    expect(boundedValue(cyclic, 1_000)).toEqual({ truncated: true, preview: '' });
    expect(boundedValue({ n: 1n, pad: 'z'.repeat(2_000) }, 1_000)).toEqual({ truncated: true, preview: '' });
  });
});
