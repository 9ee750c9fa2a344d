import { describe, expect, it } from 'vitest';
import { LinearRegex } from './linear-regex.ts';

// The engine against JavaScript's own RegExp (with the `u` flag: both match by code point) over patterns of the
// syntax both accept with the same meaning, and over random and adversarial texts: whether it matches, every
// match of a global iteration (matchAll), its position and each group's span (the `d` flag's indices).

interface Outcome {
  readonly test: boolean;
  readonly matches: ReadonlyArray<{ readonly index: number; readonly end: number; readonly spans: ReadonlyArray<readonly [number, number] | undefined> }>;
}

/**
 * JavaScript's answer. The search is the specification's (RegExpBuiltinExec: try each start from lastIndex,
 * advancing one code point at a time), written out with the sticky flag: V8's own unanchored search also tries
 * the middle of a surrogate pair for some patterns (`[...'x😀'.matchAll(/\B/gu)]` finds 2 and 3; the
 * specification, and this engine, only 3).
 */
function javascript(pattern: string, flags: string, text: string): Outcome {
  const sticky = new RegExp(pattern, `${flags}yud`);
  const advance = (index: number) => index + (index < text.length && text.codePointAt(index)! > 0xffff ? 2 : 1);
  const matches: Array<Outcome['matches'][number]> = [];
  for (let index = 0; index <= text.length; ) {
    sticky.lastIndex = index;
    const match = sticky.exec(text);
    if (!match) {
      index = advance(index);
      continue;
    }
    const end = match.index + match[0].length;
    matches.push({ index: match.index, end, spans: match.indices!.map((span) => (span ? ([span[0], span[1]] as const) : undefined)) });
    index = end > match.index ? end : advance(end);
  }
  return { test: matches.length > 0, matches };
}

function ours(regex: LinearRegex, text: string): Outcome {
  const matches = [...regex.matchAll(text)].map((match) => ({ index: match.index, end: match.end, spans: match.spans }));
  return { test: regex.test(text), matches };
}

/**
 * The pattern JavaScript needs for our `newlineOnly` option (only `\n` ends a line): `.` spelled `[^\n]`, and
 * with the `m` flag `^` and `$` spelled as lookarounds on `\n`.
 */
function newlineOnly(pattern: string, flags: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      out += pattern.slice(index, index + 2);
      index++;
    } else if (inClass) {
      inClass = char !== ']';
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else if (char === '.' && !flags.includes('s')) out += '[^\\n]';
    else if (char === '^' && flags.includes('m')) out += '(?<![^\\n])';
    else if (char === '$' && flags.includes('m')) out += '(?![^\\n])';
    else out += char;
  }
  return out;
}

/** Compares every pattern × text × flags; returns the disagreements (at most `limit`). */
function disagreements(patterns: readonly string[], texts: readonly string[], flagSets: readonly string[], options: { readonly newlineOnly?: boolean } = {}): string[] {
  const found: string[] = [];
  for (const pattern of patterns) {
    for (const flags of flagSets) {
      const regex = new LinearRegex(pattern, { ignoreCase: flags.includes('i'), multiline: flags.includes('m'), dotAll: flags.includes('s'), newlineOnly: options.newlineOnly });
      const reference = options.newlineOnly ? newlineOnly(pattern, flags) : pattern;
      for (const text of texts) {
        const expected = javascript(reference, flags, text);
        const actual = ours(regex, text);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          found.push(`/${pattern}/${flags} on ${JSON.stringify(text)}: ours ${JSON.stringify(actual)}, JavaScript ${JSON.stringify(expected)}`);
          if (found.length >= 10) return found;
        }
      }
    }
  }
  return found;
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// Texts: realistic lines, case and Unicode corners, line terminators, lone surrogates.
const LINES = [
  '',
  'TODO: call back',
  '  // FIXME(ada): handle the empty case',
  'function parseArgs(args, options) {',
  "import { readFile } from 'node:fs';",
  'const answer = 42; // the answer',
  'export const MAX_PATTERN_LENGTH = 10_000;',
  'mail ada@example.com, bob.smith@mail.example.org',
  'see https://example.com/path?q=1&r=two#frag and http://x.y',
  'phone 555-0142 or (555) 014-2000',
  '2026-12-01T10:20:30Z  ERROR  [worker-3] request failed: 503',
  'key=value; other = "quoted value"; empty=',
  '\tindented\twith\ttabs  ',
  'a\nb\r\nc\rd\u2028e\u2029f',
  'Straße STRASSE strasse ſ K k Kelvin',
  'ΣΑΣ σας ΣΑΣ ς σ Σ',
  'café CAFÉ Café',
  'emoji 😀 here 😀😀 and 🎉',
  'lone \ud83d high and \ude00 low',
  'aaaaaaaaaaaaaaaaaaaaab',
  'abababababc',
  'x'.repeat(40),
  '___ __ _',
  '1,234.56 and -7e10 and 0x1F',
  'path/to/file.ts:12:34: error TS2322',
  '<div class="a b">text</div>',
  'The quick brown fox jumps over the lazy dog.',
];

// Hand-picked patterns: what grep and sed users write, then the semantic corners (empty iterations, captures
// reset per iteration, laziness, anchors, case folding, code points).
const HAND_PICKED = [
  'TODO',
  'TODO|FIXME',
  'TO+DO',
  'FIXME\\((\\w+)\\)',
  '^\\s*//',
  '^\\s*(//|#)',
  'function\\s+(\\w+)\\s*\\(([^)]*)\\)',
  "import \\{ (\\w+) \\} from '([^']+)'",
  "from '(node:)?(\\w+)'",
  'const (\\w+) = (\\d+)',
  '[A-Z][A-Z_]+',
  '\\d+',
  '\\d{3}-\\d{4}',
  '\\(?\\d{3}\\)?[ -]?\\d{3}-\\d{4}',
  '\\d+(\\.\\d+)?',
  '-?\\d+(?:\\.\\d+)?(?:e-?\\d+)?',
  '0x[0-9A-Fa-f]+',
  '\\d{1,3}(,\\d{3})*(\\.\\d+)?',
  '([\\w.]+)@([\\w.]+)\\.(com|org)',
  '[\\w.+-]+@[\\w-]+\\.[\\w.]+',
  'https?://[^\\s/]+(/\\S*)?',
  'https?://([^/\\s]+)([^\\s?#]*)(\\?[^\\s#]*)?(#\\S*)?',
  '(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})Z',
  '\\b(ERROR|WARN|INFO)\\b',
  '\\[([^\\]]+)\\]',
  'failed: (\\d+)$',
  '(\\w+)\\s*=\\s*("[^"]*"|\\w*)',
  '(\\w+)=([^;]*)',
  '"[^"]*"',
  '^\\t',
  '\\s+$',
  '^\\s+|\\s+$',
  '\\t+',
  '[ \\t]+',
  '(\\w+):(\\d+):(\\d+)',
  'error TS\\d+',
  '<(\\w+)[^>]*>(.*?)</\\1>'.replace('\\1', '\\w+'),
  '<[^>]+>',
  'class="([^"]*)"',
  '\\bthe\\b',
  '\\b\\w{5}\\b',
  '\\b[a-z]+\\b',
  '\\B\\w+\\B',
  'o\\w*',
  '(quick|lazy) (brown|dog)',
  'fox.*dog',
  'fox.*?o',
  '^The',
  'dog\\.$',
  '^$',
  '^',
  '$',
  '\\b',
  '\\B',
  '',
  'a|',
  '|a',
  '()',
  '(|)',
  '(?:)',
  '.',
  '..',
  '.*',
  '.+',
  '.*?',
  '.+?',
  '.?',
  '[^a]',
  '[^\\n]+',
  '[\\s\\S]',
  '[^\\s]+',
  '\\S+',
  '\\W+',
  '\\D+',
  '[\\W\\d]+',
  '[^\\W_]+',
  '[-a]',
  '[a-]',
  '[\\]\\\\^-]+',
  '[\\^]',
  '[.*+?]',
  '\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/',
  '\\x41|\\u0042|\\u{43}|\\0|\\cJ',
  '[\\x00-\\x1f]',
  '\\ud83d\\ude00',
  '\\u{1F600}+',
  '😀',
  '😀+',
  '[😀🎉]',
  '[^😀]',
  '\\ud83d',
  '\\ude00',
  '[\\ud83d]',
  'a*',
  'a+',
  'a?',
  'a*?',
  'a+?',
  'a??',
  'a{2}',
  'a{2,}',
  'a{2,3}',
  'a{0,2}',
  'a{2}?',
  'a{2,}?',
  'a{2,3}?',
  'a{0}',
  '(a){0}',
  '(a*)*',
  '(a*)+',
  '(a*)?',
  '(a*)*b',
  '(a+)+b',
  '(a|a)*b',
  '(a|b)*',
  '(a|ab)(c|bcd)?',
  '(a*)(b*)',
  '(a*?)(a*)',
  '(a*)*?',
  '(a?)*',
  '(a??)+',
  '(?:a|()){0,2}',
  '(?:|a){0,2}',
  '(?:|a)*',
  '(?:a|)+?',
  '(?:(a)|b)+',
  '(?:(a)|(b))+',
  '(?:(a)|b)*c',
  '((a)|b)+',
  '(a(b)?)+',
  '(?:(a)(b)?)+',
  '((a)|(b))*',
  '(z)((a+)?(b+)?(c))*',
  '(a|(b))*?c',
  '(()|a)*',
  '(a|())*',
  '((a*)*)*',
  '((a*)+)?',
  '(?:a*(b)?)*',
  '(?:x?(y)?){2}',
  '(?:x?(y)?){1,3}',
  '(?:x?){2,}',
  '(\\b)*a',
  '(?:^)?a',
  '(?:$|a)+',
  '(?:\\b|a)+',
  '(?<word>\\w+) (?<rest>.*)',
  '(?<a>x)|(?<b>y)',
  '^a',
  'a$',
  '^a|b$',
  '^(?:a|b)$',
  '^\\w+$',
  '^.*$',
  '^$|^a',
  '(^|\\s)(\\w)',
  '(\\w)($|\\s)',
  '\\bfoo\\b',
  '\\bſ',
  'straße',
  'strasse',
  'σ',
  'Σ+',
  'ς',
  '[σ-ω]+',
  'é',
  'CAFÉ',
  'k',
  'K',
  '\\w+',
  '[a-z]+',
  '[A-Z]+',
  '[^a-z]+',
  '[^A-Z]+',
  '[a-zA-Z]+',
  '[^\\w]+',
  '\\bkelvin\\b',
  '[k]',
  '[ſ]',
  's',
  'ß',
  'ẞ',
];

const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'x', 'y', ' ', '-', '_', '1', '\n', '\r', 'é', 'É', 'ſ', 'S', 's', 'K', 'k', 'K', 'σ', 'ς', 'Σ', '😀', '\ud83d', '.'];

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
}

/** A random pattern of the shared syntax: nesting at most `depth`, counts small (JavaScript backtracks over the texts). */
function randomPattern(next: () => number, depth: number, names: { count: number }): string {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const literal = () => pick(['a', 'b', 'c', 'A', 'x', 'y', ' ', '-', '_', '1', 'é', 'ſ', 's', 'K', 'σ', '😀', '\\.', '\\n', '\\s', '\\d', '\\w', '\\W', '\\S', '\\D', '.']);
  const classItem = () => pick(['a', 'b', 'x-z', 'A-C', 'a-c', '0-9', 'é', 'ſ', 's', 'σ-ω', '😀', '\\d', '\\w', '\\s', '\\W', '\\-', '\\]', '_', ' ', '\\n']);
  const atom = (): { text: string; quantifiable: boolean } => {
    const roll = next();
    if (depth <= 0 || roll < 0.35) return { text: literal(), quantifiable: true };
    if (roll < 0.5) {
      const items = Array.from({ length: 1 + Math.floor(next() * 3) }, classItem).join('');
      return { text: `[${next() < 0.3 ? '^' : ''}${items}]`, quantifiable: true };
    }
    if (roll < 0.6) return { text: pick(['^', '$', '\\b', '\\B']), quantifiable: false };
    const body = randomPattern(next, depth - 1, names);
    const open = pick(['(', '(', '(?:', 'named']);
    return { text: `${open === 'named' ? `(?<g${names.count++}>` : open}${body})`, quantifiable: true };
  };
  const branch = () => {
    let text = '';
    const length = 1 + Math.floor(next() * 3);
    for (let index = 0; index < length; index++) {
      const { text: atomText, quantifiable } = atom();
      text += atomText;
      if (quantifiable && next() < 0.4) text += pick(['*', '+', '?', '{2}', '{1,}', '{0,2}', '{1,3}']) + (next() < 0.3 ? '?' : '');
    }
    return text;
  };
  return next() < 0.2 ? `${branch()}|${branch()}` : branch();
}

describe('LinearRegex against JavaScript RegExp', () => {
  it(`agrees on ${HAND_PICKED.length} hand-picked patterns over realistic and corner-case texts`, () => {
    expect(HAND_PICKED.length).toBeGreaterThanOrEqual(150);
    const next = random(1);
    const texts = [...LINES, ...Array.from({ length: 20 }, () => randomText(next, Math.floor(next() * 16)))];
    expect(disagreements(HAND_PICKED, texts, ['', 'i', 'm', 'is'])).toEqual([]);
  });

  it('agrees on 600 generated patterns over random texts', () => {
    const next = random(2);
    const patterns = Array.from({ length: 600 }, () => randomPattern(next, 3, { count: 0 }));
    const texts = ['', ...Array.from({ length: 24 }, () => randomText(next, 1 + Math.floor(next() * 12)))];
    expect(new Set(patterns).size).toBeGreaterThan(500);
    expect(disagreements(patterns, texts, ['', 'i', 'm', 'is'])).toEqual([]);
  });

  it('agrees with only \\n ending lines (newlineOnly, as grep and sed use it) once JavaScript spells . ^ $ that way', () => {
    const next = random(3);
    const generated = Array.from({ length: 200 }, () => randomPattern(next, 3, { count: 0 }));
    const texts = [...LINES, ...Array.from({ length: 12 }, () => randomText(next, Math.floor(next() * 14)))];
    expect(disagreements([...HAND_PICKED, ...generated], texts, ['', 'm', 'i', 'ms'], { newlineOnly: true })).toEqual([]);
  });

  it('agrees on adversarial texts for backtracking engines (short enough for JavaScript to finish)', () => {
    const patterns = ['(a+)+$', '(a|a)*b', '(x+x+)+y', '(a*)*b', '^(a|aa)+$', '(\\w+\\s?)+$', '([a-z]+)*[0-9]', '(a|b|ab)*c', '(.*a){5}', '(?:a+|b)*?c'];
    const texts = ['a'.repeat(18), `${'a'.repeat(18)}b`, 'x'.repeat(16), `${'x'.repeat(16)}y`, 'ab'.repeat(9), `${'ab'.repeat(9)}c`, 'word '.repeat(5) + '!'];
    expect(disagreements(patterns, texts, ['', 'i'])).toEqual([]);
  });

  it('starts at a given index with the text before it still in view, as JavaScript lastIndex does', () => {
    for (const [pattern, text, from] of [
      ['^a', 'aa', 1],
      ['\\ba', 'ba a', 1],
      ['\\Ba', 'ba a', 1],
      ['a|$', 'xyz', 2],
      ['😀', '😀😀', 2],
    ] as const) {
      const expected = new RegExp(pattern, 'gud');
      expected.lastIndex = from;
      const match = expected.exec(text);
      expect(new LinearRegex(pattern).exec(text, from)?.index).toBe(match?.index);
    }
  });
});
