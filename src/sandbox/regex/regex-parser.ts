// Why this file is a little over 400 lines (STYLE.md): it is one recursive-descent parser of the regex grammar; its
// character classes, case folding and sets are in their own files, and the grammar reads best as one piece.
import { foldCode, foldSet } from './case-folding.ts';
import { ANY, DIGITS, NOT_LINE_TERMINATOR, NOT_NEWLINE, POSIX_CLASSES, SPACE, wordCharacters } from './char-classes.ts';
import { charSet, unionOf } from './char-set.ts';
import type { CharSet } from './char-set.ts';
import type { Assertion, RegexNode } from './regex-node.ts';
import { RegexSyntaxError } from './regex-syntax-error.ts';

/** The flags a pattern starts with; `(?ims-ims)` and `(?ims-ims:…)` change them within a group. */
export interface RegexFlags {
  /** Letters match regardless of case (simple case folding). */
  readonly ignoreCase: boolean;
  /** `^` and `$` also match at line terminators. */
  readonly multiline: boolean;
  /** `.` also matches line terminators. */
  readonly dotAll: boolean;
  /** Only `\n` is a line terminator (for `.`, `^` and `$`), as in POSIX grep and sed; else also `\r`, U+2028 and U+2029, as in JavaScript. */
  readonly newlineOnly: boolean;
}

/** A parsed pattern. */
export interface ParsedRegex {
  readonly node: RegexNode;
  /** The number of capture groups. */
  readonly groupCount: number;
  /** The number of each named group. */
  readonly groupNames: ReadonlyMap<string, number>;
}

/** The largest repetition count (`{n}`, `{n,m}`), as in RE2. */
export const MAX_REPEAT = 1_000;
/** The deepest group nesting accepted, as in RE2. */
export const MAX_NESTING = 1_000;
const FRAGMENT_CHARS = 40;

type MutableFlags = { -readonly [key in keyof RegexFlags]: RegexFlags[key] };
type Escape = { readonly code: number } | { readonly set: CharSet } | { readonly assertion: Assertion };

const QUANTIFIER_BRACES = /\{(\d+)(?:(,)(\d*))?\}/y;
const GROUP_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const FLAG_GROUP = /\?([ims]*)(?:-([ims]*))?([:)])/y;
const HEX_BRACES = /\{([0-9A-Fa-f]{1,6})\}/y;
const HEX2 = /[0-9A-Fa-f]{2}/y;
const HEX4 = /[0-9A-Fa-f]{4}/y;

/**
 * Parses a regular expression in the syntax grep -E, sed -E and models
 * write (ERE, with Perl's and JavaScript's escapes and groups):
 * literals and escapes (`\n`, `\x41`, `\x{1F600}`, `\u00e9`, `\u{1F600}`,
 * `\cJ`, `\0`, `\.` for any ASCII punctuation), `.`, `[...]` and `[^...]`
 * with ranges and POSIX classes (`[[:alpha:]]`, `[[:^digit:]]`), `\d \D \w
 * \W \s \S`, `\b \B`, `^ $ \A \z`, `( )`, `(?: )`, `(?<name> )` and
 * `(?P<name> )`, inline flags `(?i)`, `(?m)`, `(?s)`, `(?i-m:…)`, `\Q…\E`,
 * alternation and the quantifiers `* + ? {n} {n,} {n,m}` with their lazy
 * forms. As in RE2 and POSIX, a `{` that does not start a repetition is a
 * literal, and so are `}` and a `]` outside a class or first in one.
 *
 * Refused with a {@link RegexSyntaxError}: backreferences, lookaround,
 * Unicode property classes, repetition counts over 1,000, nesting deeper
 * than 1,000 groups, and malformed syntax.
 */
export function parseRegex(pattern: string, flags: RegexFlags): ParsedRegex {
  return new RegexParser(pattern).parse(flags);
}

class RegexParser {
  readonly #pattern: string;
  #index = 0;
  #groupCount = 0;
  #depth = 0;
  readonly #names = new Map<string, number>();

  constructor(pattern: string) {
    this.#pattern = pattern;
  }

  parse(flags: RegexFlags): ParsedRegex {
    const node = this.#alternation({ ...flags });
    if (this.#index < this.#pattern.length) throw this.#error('unmatched )', 0, this.#index + 1);
    return { node, groupCount: this.#groupCount, groupNames: this.#names };
  }

  #alternation(flags: MutableFlags): RegexNode {
    const items = [this.#concat(flags)];
    while (this.#pattern[this.#index] === '|') {
      this.#index++;
      items.push(this.#concat(flags));
    }
    return items.length === 1 ? items[0]! : { type: 'alternation', items };
  }

  #concat(flags: MutableFlags): RegexNode {
    const items: RegexNode[] = [];
    while (this.#index < this.#pattern.length) {
      const char = this.#pattern[this.#index];
      if (char === '|' || char === ')') break;
      if (this.#pattern.startsWith('\\Q', this.#index)) {
        // \Q…\E: literal text, as in RE2 and Perl; a quantifier after it applies to its last character.
        const codes = this.#quoted();
        codes.forEach((code, index) => {
          const node: RegexNode = { type: 'set', set: literal(code, flags) };
          items.push(index === codes.length - 1 ? this.#quantified(node) : node);
        });
        continue;
      }
      const atom = this.#atom(flags);
      if (atom !== undefined) items.push(this.#quantified(atom));
    }
    return items.length === 0 ? { type: 'empty' } : items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  /** The code points of `\Q…\E` (to the end of the pattern without `\E`); the cursor is on the `\Q`. */
  #quoted(): number[] {
    const start = this.#index + 2;
    const end = this.#pattern.indexOf('\\E', start);
    const text = this.#pattern.slice(start, end === -1 ? this.#pattern.length : end);
    this.#index = end === -1 ? this.#pattern.length : end + 2;
    return [...text].map((char) => char.codePointAt(0)!);
  }

  #quantified(atom: RegexNode): RegexNode {
    const start = this.#index;
    const quantifier = this.#quantifier();
    if (!quantifier) return atom;
    let greedy = true;
    if (this.#pattern[this.#index] === '?') {
      this.#index++;
      greedy = false;
    }
    const next = this.#index;
    if (this.#quantifier()) throw this.#error('bad repetition operator', start, this.#index);
    this.#index = next;
    return { type: 'repeat', body: atom, min: quantifier.min, max: quantifier.max, greedy };
  }

  /** Reads a quantifier at the cursor, or leaves the cursor and returns undefined. */
  #quantifier(): { readonly min: number; readonly max: number } | undefined {
    const char = this.#pattern[this.#index];
    if (char === '*' || char === '+' || char === '?') {
      this.#index++;
      return { min: char === '+' ? 1 : 0, max: char === '?' ? 1 : Infinity };
    }
    if (char !== '{') return undefined;
    QUANTIFIER_BRACES.lastIndex = this.#index;
    const braces = QUANTIFIER_BRACES.exec(this.#pattern);
    if (!braces) return undefined;
    const start = this.#index;
    this.#index += braces[0].length;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
      throw this.#error(`repetition count over ${MAX_REPEAT.toLocaleString('en-US')}`, start, this.#index);
    }
    if (min > max) throw this.#error('invalid repetition range (minimum over maximum)', start, this.#index);
    return { min, max };
  }

  /** One atom, or undefined for a flag group `(?i)` (which changes `flags` for the rest of the group). */
  #atom(flags: MutableFlags): RegexNode | undefined {
    const start = this.#index;
    const code = this.#pattern.codePointAt(start)!;
    switch (code) {
      case 0x28 /* ( */:
        return this.#group(flags);
      case 0x5b /* [ */:
        return { type: 'set', set: this.#class(flags) };
      case 0x2e /* . */:
        this.#index++;
        return { type: 'set', set: flags.dotAll ? ANY : flags.newlineOnly ? NOT_NEWLINE : NOT_LINE_TERMINATOR };
      case 0x5e /* ^ */:
        this.#index++;
        return { type: 'assertion', assertion: !flags.multiline ? 'text-start' : flags.newlineOnly ? 'newline-start' : 'line-start' };
      case 0x24 /* $ */:
        this.#index++;
        return { type: 'assertion', assertion: !flags.multiline ? 'text-end' : flags.newlineOnly ? 'newline-end' : 'line-end' };
      case 0x5c /* \ */: {
        const escape = this.#escape(flags, false);
        if ('assertion' in escape) return { type: 'assertion', assertion: escape.assertion };
        return { type: 'set', set: 'set' in escape ? escape.set : literal(escape.code, flags) };
      }
      case 0x2a /* * */:
      case 0x2b /* + */:
      case 0x3f /* ? */:
        throw this.#error('missing argument to repetition operator', start, start + 1);
      case 0x7b /* { */:
        if (this.#quantifier()) throw this.#error('missing argument to repetition operator', start, this.#index);
        break;
    }
    this.#index = start + (code > 0xffff ? 2 : 1);
    return { type: 'set', set: literal(code, flags) };
  }

  #group(flags: MutableFlags): RegexNode | undefined {
    const open = this.#index;
    this.#index++;
    if (++this.#depth > MAX_NESTING) throw this.#error(`groups nested deeper than ${MAX_NESTING.toLocaleString('en-US')}`, open, open + 1);
    let node: RegexNode;
    const rest = this.#pattern.slice(this.#index, this.#index + 4);
    if (rest.startsWith('?:')) {
      this.#index += 2;
      node = this.#alternation({ ...flags });
    } else if (rest.startsWith('?=') || rest.startsWith('?!')) {
      throw this.#error('lookahead is not supported', open, open + 3);
    } else if (rest.startsWith('?<=') || rest.startsWith('?<!')) {
      throw this.#error('lookbehind is not supported', open, open + 4);
    } else if (rest.startsWith('?P=') || rest.startsWith('?P>')) {
      throw this.#error('backreferences are not supported', open, open + 4);
    } else if (rest.startsWith('?<') || rest.startsWith('?P<')) {
      this.#index += rest.startsWith('?<') ? 2 : 3;
      GROUP_NAME.lastIndex = this.#index;
      const name = GROUP_NAME.exec(this.#pattern)?.[0];
      if (name === undefined || this.#pattern[this.#index + name.length] !== '>') throw this.#error('invalid group name', open, this.#index + (name?.length ?? 0) + 1);
      if (this.#names.has(name)) throw this.#error('duplicate group name', open, this.#index + name.length + 1);
      this.#index += name.length + 1;
      const index = ++this.#groupCount;
      this.#names.set(name, index);
      node = { type: 'group', index, body: this.#alternation({ ...flags }) };
    } else if (rest.startsWith('?')) {
      FLAG_GROUP.lastIndex = this.#index;
      const group = FLAG_GROUP.exec(this.#pattern);
      if (!group || (group[1] === '' && (group[2] ?? '') === '')) throw this.#error('invalid or unsupported group syntax', open, Math.min(this.#pattern.length, open + 3));
      this.#index += group[0].length;
      const changed = { ...flags };
      for (const flag of group[1]!) setFlag(changed, flag, true);
      for (const flag of group[2] ?? '') setFlag(changed, flag, false);
      if (group[3] === ')') {
        Object.assign(flags, changed);
        this.#depth--;
        return undefined;
      }
      node = this.#alternation(changed);
    } else {
      const index = ++this.#groupCount;
      node = { type: 'group', index, body: this.#alternation({ ...flags }) };
    }
    if (this.#pattern[this.#index] !== ')') throw this.#error('missing closing )', open, this.#pattern.length);
    this.#index++;
    this.#depth--;
    return node;
  }

  #class(flags: MutableFlags): CharSet {
    const open = this.#index;
    this.#index++;
    const negated = this.#pattern[this.#index] === '^';
    if (negated) this.#index++;
    const parts: CharSet[] = [];
    for (let first = true; ; first = false) {
      if (this.#index >= this.#pattern.length) throw this.#error('missing closing ]', open, this.#pattern.length);
      if (this.#pattern[this.#index] === ']' && !first) {
        this.#index++;
        break;
      }
      const itemStart = this.#index;
      const item = this.#classItem(flags);
      if (this.#pattern[this.#index] !== '-' || this.#index + 1 >= this.#pattern.length || this.#pattern[this.#index + 1] === ']') {
        parts.push('set' in item ? item.set : charSet(item.code, item.code));
        continue;
      }
      this.#index++;
      const high = this.#classItem(flags);
      if (!('code' in item) || !('code' in high)) throw this.#error('invalid character class range', itemStart, this.#index);
      if (high.code < item.code) throw this.#error('invalid character class range', itemStart, this.#index);
      parts.push(charSet(item.code, high.code));
    }
    let set = unionOf(parts);
    if (flags.ignoreCase) set = foldSet(set);
    return negated ? set.negate() : set;
  }

  #classItem(flags: MutableFlags): { readonly code: number } | { readonly set: CharSet } {
    const start = this.#index;
    if (this.#pattern.startsWith('[:', start)) {
      const end = this.#pattern.indexOf(':]', start + 2);
      if (end !== -1) {
        const name = this.#pattern.slice(start + 2, end);
        const negated = name.startsWith('^');
        const set = POSIX_CLASSES.get(negated ? name.slice(1) : name);
        if (!set) throw this.#error('unknown POSIX class', start, end + 2);
        this.#index = end + 2;
        return { set: negated ? complement(set, flags.ignoreCase) : set };
      }
    }
    if (this.#pattern[start] === '\\') {
      const escape = this.#escape(flags, true);
      if ('assertion' in escape) throw this.#error('invalid escape sequence in a character class', start, this.#index);
      return escape;
    }
    const code = this.#pattern.codePointAt(start)!;
    this.#index += code > 0xffff ? 2 : 1;
    return { code };
  }

  #escape(flags: MutableFlags, inClass: boolean): Escape {
    const start = this.#index;
    this.#index++;
    if (this.#index >= this.#pattern.length) throw this.#error('trailing backslash at end of expression', start, this.#index);
    const code = this.#pattern.codePointAt(this.#index)!;
    this.#index += code > 0xffff ? 2 : 1;
    const char = String.fromCodePoint(code);
    const fail = (problem: string): never => {
      throw this.#error(problem, start, this.#index);
    };
    switch (char) {
      case 'd':
        return { set: DIGITS };
      case 'D':
        return { set: complement(DIGITS, flags.ignoreCase) };
      case 'w':
        return { set: wordCharacters(flags.ignoreCase) };
      case 'W':
        return { set: complement(wordCharacters(flags.ignoreCase), flags.ignoreCase) };
      case 's':
        return { set: SPACE };
      case 'S':
        return { set: complement(SPACE, flags.ignoreCase) };
      case 'b':
        return inClass ? { code: 8 } : { assertion: flags.ignoreCase ? 'folded-word-boundary' : 'word-boundary' };
      case 'B':
        return { assertion: flags.ignoreCase ? 'folded-not-word-boundary' : 'not-word-boundary' };
      case 'A':
        return { assertion: 'text-start' };
      case 'z':
        return { assertion: 'text-end' };
      case 'n':
        return { code: 0xa };
      case 'r':
        return { code: 0xd };
      case 't':
        return { code: 0x9 };
      case 'f':
        return { code: 0xc };
      case 'v':
        return { code: 0xb };
      case 'a':
        return { code: 0x7 };
      case '0':
        if (/[0-9]/.test(this.#pattern[this.#index] ?? '')) fail('octal escapes are not supported');
        return { code: 0 };
      case 'k':
        return fail('backreferences are not supported');
      case 'p':
      case 'P':
        return fail('Unicode property classes are not supported');
      case 'x':
        return { code: this.#hex(HEX2, fail) };
      case 'u':
        return { code: this.#unicodeEscape(fail) };
      case 'c': {
        const letter = this.#pattern[this.#index] ?? '';
        if (!/[A-Za-z]/.test(letter)) fail('invalid control escape');
        this.#index++;
        return { code: letter.charCodeAt(0) % 32 };
      }
    }
    if (/[1-9]/.test(char)) return fail('backreferences are not supported');
    if (code < 0x80 && !/[A-Za-z0-9]/.test(char)) return { code };
    return fail('invalid escape sequence');
  }

  /** `\xHH` or `\x{H…}` (the cursor is after the `x`). */
  #hex(fixed: RegExp, fail: (problem: string) => never): number {
    HEX_BRACES.lastIndex = this.#index;
    const braces = HEX_BRACES.exec(this.#pattern);
    if (braces) {
      const code = Number.parseInt(braces[1]!, 16);
      this.#index += braces[0].length;
      if (code > 0x10ffff) fail('invalid escape sequence (beyond U+10FFFF)');
      return code;
    }
    fixed.lastIndex = this.#index;
    const digits = fixed.exec(this.#pattern)?.[0];
    if (digits === undefined) return fail('invalid escape sequence');
    this.#index += digits.length;
    return Number.parseInt(digits, 16);
  }

  /** `\uHHHH` (a surrogate pair written as two joins into one code point) or `\u{H…}`. */
  #unicodeEscape(fail: (problem: string) => never): number {
    const code = this.#hex(HEX4, fail);
    if (code < 0xd800 || code > 0xdbff || !this.#pattern.startsWith('\\u', this.#index)) return code;
    HEX4.lastIndex = this.#index + 2;
    const low = HEX4.exec(this.#pattern)?.[0];
    const lowCode = low === undefined ? -1 : Number.parseInt(low, 16);
    if (lowCode < 0xdc00 || lowCode > 0xdfff) return code;
    this.#index += 6;
    return 0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00);
  }

  #error(problem: string, start: number, end: number): RegexSyntaxError {
    let fragment = this.#pattern.slice(start, end);
    if (fragment.length > FRAGMENT_CHARS) fragment = `${fragment.slice(0, FRAGMENT_CHARS)}…`;
    return new RegexSyntaxError(`${problem}: \`${fragment}\``);
  }
}

function literal(code: number, flags: RegexFlags): CharSet {
  return flags.ignoreCase ? foldCode(code) : charSet(code, code);
}

/** The complement of a class escape (`\W`, `\S`, `\D`, `[:^alpha:]`): under case folding, of its folded set, as JavaScript does. */
function complement(set: CharSet, ignoreCase: boolean): CharSet {
  return (ignoreCase ? foldSet(set) : set).negate();
}

function setFlag(flags: MutableFlags, flag: string, value: boolean): void {
  if (flag === 'i') flags.ignoreCase = value;
  else if (flag === 'm') flags.multiline = value;
  else flags.dotAll = value;
}
