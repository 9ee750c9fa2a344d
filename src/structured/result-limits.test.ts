import { describe, expect, it } from 'vitest';
import { resultLimitIssue } from './result-limits.ts';

describe('resultLimitIssue', () => {
  it('accepts ordinary values and rejects deep, wide, huge and unserializable ones', () => {
    expect(resultLimitIssue({ a: [1, 2, { b: 'c' }] })).toBeUndefined();
    let deep: unknown = 1;
    for (let level = 0; level < 64; level++) deep = [deep];
    expect(resultLimitIssue(deep)).toBe('Structured result exceeds the maximum nesting depth');
    expect(resultLimitIssue(new Array(100_001).fill(0))).toBe('Structured result exceeds the maximum complexity');
    expect(resultLimitIssue({ text: 'x'.repeat(1_000_000) })).toBe('Structured result exceeds the maximum serialized size');
    expect(resultLimitIssue({ big: 1n })).toBe('Structured result cannot be serialized');
  });
});
