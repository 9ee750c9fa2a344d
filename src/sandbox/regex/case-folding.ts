// Simple case folding, as JavaScript's `RegExp` applies it with the `iu`
// flags (Unicode's CaseFolding.txt, statuses C and S), derived from the
// runtime's own `toUpperCase`/`toLowerCase` instead of a bundled table: two
// code points are equivalent when upper-casing and then lower-casing maps
// both to the same single code point. Three pairs that simple folding joins
// but no single-code-point case mapping does are added by hand, and dotless
// `ı` (which folds to itself) is kept apart from `i`. The table is built on
// first use (a few milliseconds); case-folding.test.ts compares the result
// with the runtime's `RegExp` over every code point.
import { CharSet } from './char-set.ts';

interface CaseTable {
  /** Each equivalence class of two or more code points, sorted. */
  readonly classes: ReadonlyArray<readonly number[]>;
  /** The class of each code point that has one. */
  readonly classOf: ReadonlyMap<number, readonly number[]>;
}

/** Code points from here on have no case mappings (planes 2 and above: CJK, tags, private use, unassigned). */
const SCAN_END = 0x20000;
const EXTRA_PAIRS: ReadonlyArray<readonly [number, number]> = [
  [0x1fd3, 0x390],
  [0x1fe3, 0x3b0],
  [0xfb05, 0xfb06],
];
const DOTLESS_I = 0x131;

let table: CaseTable | undefined;

/** The code points equivalent to `code` under simple case folding, `code` included. */
export function foldCode(code: number): CharSet {
  const members = caseTable().classOf.get(code);
  return new CharSet(members ? members.flatMap((member) => [member, member]) : [code, code]);
}

/** `set` with every code point equivalent to one of its members added. */
export function foldSet(set: CharSet): CharSet {
  const added: number[] = [];
  for (const members of caseTable().classes) {
    if (members.some((member) => set.has(member))) for (const member of members) added.push(member, member);
  }
  return added.length === 0 ? set : new CharSet([...set.ranges, ...added]);
}

/** The code point that represents `code`'s class (exported for the tests). */
export function canonicalCode(code: number): number {
  if (code === DOTLESS_I) return code;
  const text = String.fromCodePoint(code);
  const upper = singleCode(text.toUpperCase());
  if (upper !== undefined) {
    const lower = singleCode(String.fromCodePoint(upper).toLowerCase());
    if (lower !== undefined) return lower;
  }
  return singleCode(text.toLowerCase()) ?? code;
}

function caseTable(): CaseTable {
  table ??= buildTable();
  return table;
}

function buildTable(): CaseTable {
  const byCanonical = new Map<number, Set<number>>();
  const join = (code: number, canonical: number) => {
    let members = byCanonical.get(canonical);
    if (!members) byCanonical.set(canonical, (members = new Set([canonical])));
    members.add(code);
  };
  for (const code of casedCodes()) join(code, canonicalCode(code));
  for (const [code, other] of EXTRA_PAIRS) join(code, canonicalCode(other));
  const classes = [...byCanonical.values()].filter((members) => members.size > 1).map((members) => [...members].sort((left, right) => left - right));
  const classOf = new Map<number, readonly number[]>();
  for (const members of classes) for (const member of members) classOf.set(member, members);
  return { classes, classOf };
}

/** The code points below SCAN_END that upper- or lower-casing changes, found a block at a time. */
function casedCodes(): number[] {
  const found: number[] = [];
  const scan = (start: number, end: number, step: number) => {
    for (let base = start; base < end; base += step) {
      const codes: number[] = [];
      for (let code = base; code < Math.min(end, base + step); code++) if (code < 0xd800 || code > 0xdfff) codes.push(code);
      if (codes.length === 0) continue;
      const text = String.fromCodePoint(...codes);
      if (text.toUpperCase() === text && text.toLowerCase() === text) continue;
      if (step > 64) {
        scan(base, Math.min(end, base + step), step / 8);
        continue;
      }
      for (const code of codes) {
        const one = String.fromCodePoint(code);
        if (one.toUpperCase() !== one || one.toLowerCase() !== one) found.push(code);
      }
    }
  };
  scan(0, SCAN_END, 4096);
  return found;
}

function singleCode(text: string): number | undefined {
  const code = text.codePointAt(0);
  return code !== undefined && text.length === (code > 0xffff ? 2 : 1) ? code : undefined;
}
