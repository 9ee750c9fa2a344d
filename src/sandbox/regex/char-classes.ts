import { foldSet } from './case-folding.ts';
import { charSet } from './char-set.ts';
import type { CharSet } from './char-set.ts';

const code = (char: string) => char.codePointAt(0)!;

/** `\d`: the ASCII digits, as in JavaScript. */
export const DIGITS: CharSet = charSet(code('0'), code('9'));
/** `\w`: ASCII letters, digits and `_`, as in JavaScript. */
export const WORD: CharSet = charSet(code('0'), code('9'), code('A'), code('Z'), code('_'), code('_'), code('a'), code('z'));
/** `\s`: JavaScript's white space and line terminators. */
export const SPACE: CharSet = charSet(0x9, 0xd, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff);
/** The line terminators of `.`, `^` and `$`: `\n`, `\r`, U+2028 and U+2029, as in JavaScript. */
export const LINE_TERMINATORS: CharSet = charSet(0xa, 0xa, 0xd, 0xd, 0x2028, 0x2029);

/** `.`: everything but a line terminator. */
export const NOT_LINE_TERMINATOR: CharSet = LINE_TERMINATORS.negate();
/** `.` when only `\n` ends a line (POSIX tools). */
export const NOT_NEWLINE: CharSet = charSet(0, 0x9, 0xb, 0x10ffff);
/** `.` with the `s` flag: every code point. */
export const ANY: CharSet = charSet(0, 0x10ffff);

let foldedWord: CharSet | undefined;

/**
 * The word characters of `\w`, `\b` and `\B`: with case folding they also
 * hold the two code points that fold into ASCII letters (`ſ`, U+017F, and the
 * Kelvin sign, U+212A), as JavaScript's `iu` flags make them.
 */
export function wordCharacters(ignoreCase: boolean): CharSet {
  if (!ignoreCase) return WORD;
  foldedWord ??= foldSet(WORD);
  return foldedWord;
}

/** The POSIX bracket classes (`[[:alpha:]]`), ASCII only as in RE2 and the C locale. */
export const POSIX_CLASSES: ReadonlyMap<string, CharSet> = new Map([
  ['alnum', charSet(0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a)],
  ['alpha', charSet(0x41, 0x5a, 0x61, 0x7a)],
  ['ascii', charSet(0x0, 0x7f)],
  ['blank', charSet(0x9, 0x9, 0x20, 0x20)],
  ['cntrl', charSet(0x0, 0x1f, 0x7f, 0x7f)],
  ['digit', charSet(0x30, 0x39)],
  ['graph', charSet(0x21, 0x7e)],
  ['lower', charSet(0x61, 0x7a)],
  ['print', charSet(0x20, 0x7e)],
  ['punct', charSet(0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e)],
  ['space', charSet(0x9, 0xd, 0x20, 0x20)],
  ['upper', charSet(0x41, 0x5a)],
  ['word', charSet(0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a)],
  ['xdigit', charSet(0x30, 0x39, 0x41, 0x46, 0x61, 0x66)],
]);
