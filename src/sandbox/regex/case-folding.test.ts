import { describe, expect, it } from 'vitest';
import { foldCode, foldSet } from './case-folding.ts';
import { charSet } from './char-set.ts';

/** Every code point that upper- or lower-casing changes, in the whole code space (the test's own scan). */
function casedCodes(start: number, end: number): number[] {
  const found: number[] = [];
  for (let base = start; base < end; base += 1024) {
    const codes: number[] = [];
    for (let code = base; code < Math.min(end, base + 1024); code++) if (code < 0xd800 || code > 0xdfff) codes.push(code);
    if (codes.length === 0) continue;
    const text = String.fromCodePoint(...codes);
    if (text.toUpperCase() === text && text.toLowerCase() === text) continue;
    for (const code of codes) {
      const one = String.fromCodePoint(code);
      if (one.toUpperCase() !== one || one.toLowerCase() !== one) found.push(code);
    }
  }
  return found;
}

const members = (code: number) => {
  const ranges = foldCode(code).ranges;
  const out: number[] = [];
  for (let index = 0; index < ranges.length; index += 2) for (let member = ranges[index]!; member <= ranges[index + 1]!; member++) out.push(member);
  return out;
};

describe('case folding', () => {
  it('has nothing to fold at or above U+20000, where the table stops scanning', () => {
    expect(casedCodes(0x20000, 0x110000)).toEqual([]);
  });

  it("folds exactly as this runtime's RegExp does with the iu flags, for every code point with a case mapping", () => {
    const cased = casedCodes(0, 0x20000);
    expect(cased.length).toBeGreaterThan(2_500);
    const candidates = String.fromCodePoint(...cased);
    const mismatches: string[] = [];
    for (const code of cased) {
      const javascript = new Set([code]);
      for (const match of candidates.matchAll(new RegExp(`\\u{${code.toString(16)}}`, 'giu'))) javascript.add(match[0].codePointAt(0)!);
      const expected = [...javascript].sort((left, right) => left - right);
      const actual = members(code);
      if (expected.join() !== actual.join()) mismatches.push(`U+${code.toString(16)}: RegExp ${expected.map((member) => member.toString(16))}, ours ${actual.map((member) => member.toString(16))}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('folds the corner cases JavaScript folds, and keeps apart what it keeps apart', () => {
    const code = (char: string) => char.codePointAt(0)!;
    expect(members(code('k'))).toEqual([code('K'), code('k'), 0x212a]);
    expect(members(code('s'))).toEqual([code('S'), code('s'), 0x17f]);
    expect(members(code('ς'))).toEqual([code('Σ'), code('σ'), code('ς')].sort((left, right) => left - right));
    expect(members(code('ß'))).toEqual([code('ß'), 0x1e9e]);
    expect(members(0x131)).toEqual([0x131]);
    expect(members(0x130)).toEqual([0x130]);
    expect(members(code('i'))).toEqual([code('I'), code('i')]);
    expect(members(code('1'))).toEqual([code('1')]);
  });

  it('closes a set under folding', () => {
    expect(foldSet(charSet(0x61, 0x63)).ranges).toEqual([0x41, 0x43, 0x61, 0x63]);
    expect(foldSet(charSet(0x30, 0x39)).ranges).toEqual([0x30, 0x39]);
  });
});
