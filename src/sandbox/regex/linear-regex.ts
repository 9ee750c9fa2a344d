import { parseRegex } from './regex-parser.ts';
import { prefilterOf } from './regex-prefilter.ts';
import { compileProgram } from './regex-program.ts';
import { PikeVm } from './regex-vm.ts';
import type { RegexMeter } from './regex-vm.ts';

/** How a pattern is read. */
export interface LinearRegexOptions {
  /** Letters match regardless of case (simple case folding), like JavaScript's `i` flag. */
  readonly ignoreCase?: boolean | undefined;
  /** `^` and `$` also match at line terminators, like JavaScript's `m` flag. */
  readonly multiline?: boolean | undefined;
  /** `.` also matches line terminators, like JavaScript's `s` flag. */
  readonly dotAll?: boolean | undefined;
  /**
   * Only `\n` ends a line, for `.`, `^` and `$`, as in POSIX grep and sed
   * (so `.` matches the `\r` of a CRLF line); by default `\r`, U+2028 and
   * U+2029 do too, as in JavaScript.
   */
  readonly newlineOnly?: boolean | undefined;
}

/** Options of one search. */
export interface LinearRegexSearchOptions {
  /** Report groups 1…`groups` only (default: all); the fewer, the less work per step. */
  readonly groups?: number | undefined;
  /** Adds the VM's steps to `meter.steps`. */
  readonly meter?: RegexMeter | undefined;
}

/** One match. Positions are UTF-16 indices, as in JavaScript. */
export interface LinearRegexMatch {
  /** Where the match starts. */
  readonly index: number;
  /** Where the match ends. */
  readonly end: number;
  /** The matched text (index 0) and each reported group's text, `undefined` for a group that did not participate. */
  readonly groups: ReadonlyArray<string | undefined>;
  /** The `[start, end]` of the match (index 0) and of each reported group, as JavaScript's `d` flag gives them. */
  readonly spans: ReadonlyArray<readonly [number, number] | undefined>;
}

/**
 * A regular expression that runs in linear time: parsed by regex-parser.ts
 * (ERE syntax with JavaScript's escapes; no backreferences or lookaround),
 * compiled to a program and run on a Pike VM, matching by code point. The
 * results (whether, where, and the captures) are JavaScript's `RegExp` with
 * the `u` flag for the syntax both accept; a search takes O(pattern × text)
 * steps and O(pattern) memory, so a model-written pattern cannot hang the
 * isolate. Throws a `RegexSyntaxError` for what it cannot compile.
 *
 * @example
 * const regex = new LinearRegex('(\\w+)@(\\w+)\\.com', { ignoreCase: true });
 * regex.exec('mail Ada@Example.com')?.groups; // ['Ada@Example.com', 'Ada', 'Example']
 */
export class LinearRegex {
  /** The pattern. */
  readonly source: string;
  /** The number of capture groups. */
  readonly groupCount: number;
  /** The number of each named group. */
  readonly groupNames: ReadonlyMap<string, number>;
  readonly #vm: PikeVm;
  readonly #required: string | undefined;

  constructor(pattern: string, options: LinearRegexOptions = {}) {
    const parsed = parseRegex(pattern, {
      ignoreCase: options.ignoreCase === true,
      multiline: options.multiline === true,
      dotAll: options.dotAll === true,
      newlineOnly: options.newlineOnly === true,
    });
    this.source = pattern;
    this.groupCount = parsed.groupCount;
    this.groupNames = parsed.groupNames;
    const prefilter = prefilterOf(parsed.node);
    this.#required = prefilter.required ?? (prefilter.start.type === 'prefix' ? prefilter.start.prefix : undefined);
    this.#vm = new PikeVm(compileProgram(parsed.node, parsed.groupCount), prefilter);
  }

  /** Whether the pattern matches anywhere in `text`. */
  test(text: string, meter?: RegexMeter): boolean {
    return this.#vm.run(text, 0, 0, meter) !== undefined;
  }

  /**
   * False only when `text` cannot hold a match: it lacks literal text every
   * match contains. A quick check before searching a text piece by piece
   * (a file line by line); true when the pattern requires no literal.
   */
  mayMatch(text: string): boolean {
    return this.#required === undefined || text.includes(this.#required);
  }

  /** The leftmost match starting at or after `from` (a UTF-16 index; the text before still counts for `^`, `\b`). */
  exec(text: string, from = 0, options: LinearRegexSearchOptions = {}): LinearRegexMatch | undefined {
    const groups = Math.min(options.groups ?? this.groupCount, this.groupCount);
    const slots = this.#vm.run(text, from, 2 * (groups + 1), options.meter);
    if (!slots) return undefined;
    const spans: Array<readonly [number, number] | undefined> = [];
    for (let group = 0; group <= groups; group++) {
      const start = slots[2 * group]!;
      const end = slots[2 * group + 1]!;
      spans.push(start >= 0 && end >= 0 ? [start, end] : undefined);
    }
    return { index: slots[0]!, end: slots[1]!, groups: spans.map((span) => (span ? text.slice(span[0], span[1]) : undefined)), spans };
  }

  /**
   * Every match, left to right, as JavaScript's `matchAll` with the `g` flag
   * finds them: each search starts where the previous match ended, one code
   * point further after an empty match.
   */
  *matchAll(text: string, options: LinearRegexSearchOptions = {}): Generator<LinearRegexMatch> {
    for (let from = 0; from <= text.length; ) {
      const match = this.exec(text, from, options);
      if (!match) return;
      yield match;
      const code = text.codePointAt(match.end);
      from = match.end > match.index ? match.end : match.end + (code !== undefined && code > 0xffff ? 2 : 1);
    }
  }
}
