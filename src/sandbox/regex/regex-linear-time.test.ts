import { describe, expect, it } from 'vitest';
import { LinearRegex } from './linear-regex.ts';
import type { RegexMeter } from './regex-vm.ts';

// Patterns that take a backtracking engine exponential (or high polynomial) time on these texts. The engine
// must finish, and its work, counted in VM steps, must grow linearly with the text: doubling the text at most
// doubles the steps (plus a little for the fixed start-up). Steps are counted, never wall time.

const SIZES = [10_000, 20_000, 40_000, 80_000];

// Each text holds every literal of its pattern, so the prefilters (a required literal, a first character) cannot
// decide and the VM reads the whole text; several end in a short match the search has to reach.
const ADVERSARIAL: ReadonlyArray<{ readonly pattern: string; readonly text: (size: number) => string; readonly matches: boolean }> = [
  { pattern: '(a+)+$', text: (size) => `${'a'.repeat(size)}b`, matches: false },
  { pattern: '(a+)+$', text: (size) => 'a'.repeat(size), matches: true },
  { pattern: '(a+)+b', text: (size) => `${'a'.repeat(size)}cb`, matches: false },
  { pattern: '(a|a)*b', text: (size) => `${'a'.repeat(size)}cb`, matches: true },
  { pattern: '(a|aa)+$', text: (size) => `${'a'.repeat(size)}!`, matches: false },
  { pattern: '(x+x+)+y', text: (size) => `${'x'.repeat(size)}zy`, matches: false },
  { pattern: '(a*)*b', text: (size) => `${'a'.repeat(size)}cb`, matches: true },
  { pattern: '((a+)*)+c', text: (size) => `${'a'.repeat(size)}bc`, matches: true },
  { pattern: '(a|b|ab)*c', text: (size) => `${'ab'.repeat(size / 2)}dc`, matches: true },
  { pattern: '(\\w+\\s?)+$', text: (size) => `${'word '.repeat(size / 5)}!`, matches: false },
  { pattern: '([a-z]+)*[0-9]', text: (size) => 'abcde'.repeat(size / 5), matches: false },
  { pattern: '(.*a){20}', text: (size) => `a${'b'.repeat(size - 1)}`, matches: false },
  { pattern: '(?:a{1,10}){1,10}b', text: (size) => `${'a'.repeat(size)}cb`, matches: false },
  { pattern: '^(\\s*\\w+\\s*)*=$', text: (size) => `${'ab '.repeat(size / 3)}!=`, matches: false },
  { pattern: '(.*?,){11}P', text: (size) => `P${'1,'.repeat(size / 2)}`, matches: false },
  { pattern: '(?:(a)|b|(ab))*c', text: (size) => `${'ab'.repeat(size / 2)}c`, matches: true },
];

function steps(regex: LinearRegex, text: string, mode: 'test' | 'exec'): { readonly steps: number; readonly matched: boolean } {
  const meter: RegexMeter = { steps: 0 };
  const matched = mode === 'test' ? regex.test(text, meter) : regex.exec(text, 0, { meter }) !== undefined;
  return { steps: meter.steps, matched };
}

describe('LinearRegex on patterns catastrophic for backtracking', () => {
  for (const { pattern, text, matches } of ADVERSARIAL) {
    for (const mode of ['test', 'exec'] as const) {
      it(`${mode} /${pattern}/ on 10-80 KB texts: ${matches ? 'matches' : 'no match'}, steps grow linearly`, () => {
        const regex = new LinearRegex(pattern);
        const runs = SIZES.map((size) => steps(regex, text(size), mode));
        for (const run of runs) expect(run.matched).toBe(matches);
        for (let index = 1; index < runs.length; index++) {
          const ratio = runs[index]!.steps / runs[index - 1]!.steps;
          expect(ratio, `steps ${runs.map((run) => run.steps).join(' → ')}`).toBeLessThan(2.1);
        }
        // And each character costs a bounded number of steps (the program is small).
        expect(runs.at(-1)!.steps / SIZES.at(-1)!).toBeLessThan(400);
      });
    }
  }

  it('ends a search before it starts when a literal every match contains is missing', () => {
    for (const [pattern, text] of [
      ['(a|a)*b', 'a'.repeat(10_000)],
      ['\\w+@\\w+\\.com', 'word@word.org '.repeat(1_000)],
      ['(x+x+)+yz', `${'x'.repeat(10_000)}y`],
    ] as const) {
      const meter: RegexMeter = { steps: 0 };
      expect(new LinearRegex(pattern).test(text, meter)).toBe(false);
      expect(meter.steps).toBe(0);
    }
  });

  it('starts anchored patterns only where they can match', () => {
    const meter: RegexMeter = { steps: 0 };
    expect(new LinearRegex('^(a|b)*c').test(`${'ab'.repeat(5_000)}c`.replace('b', 'x'), meter)).toBe(false);
    expect(meter.steps).toBeLessThan(100);
    // 1,000 lines of 26 characters: a few steps at each line start, none elsewhere.
    const lines: RegexMeter = { steps: 0 };
    expect(new LinearRegex('^\\s*//', { multiline: true }).test('x = 1 // not at the start\n'.repeat(1_000), lines)).toBe(false);
    expect(lines.steps).toBeLessThan(10_000);
  });

  it('counts one search in `meter.steps`, adding to what the meter held', () => {
    const regex = new LinearRegex('b');
    const meter: RegexMeter = { steps: 5 };
    expect(regex.test('aab', meter)).toBe(true);
    expect(meter.steps).toBeGreaterThan(5);
  });

  it('a yes/no search stops at the first thread to match, a capturing one reads on only while a better match may exist', () => {
    const regex = new LinearRegex('a|a.*z');
    const text = `a${'b'.repeat(10_000)}`;
    const yesNo: RegexMeter = { steps: 0 };
    const capturing: RegexMeter = { steps: 0 };
    expect(regex.test(text, yesNo)).toBe(true);
    expect(regex.exec(text, 0, { meter: capturing })).toMatchObject({ index: 0, end: 1 });
    expect(yesNo.steps).toBeLessThan(20);
    expect(capturing.steps).toBeLessThan(20);
    // `a.*z` before `a`: the higher-priority thread has to read to the end before `a` can be taken.
    const greedyFirst = new LinearRegex('a.*z|a');
    const reading: RegexMeter = { steps: 0 };
    expect(greedyFirst.exec(text, 0, { meter: reading })).toMatchObject({ index: 0, end: 1 });
    expect(reading.steps).toBeGreaterThan(10_000);
  });
});
