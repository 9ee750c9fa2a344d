import { describe, expect, it } from 'vitest';
import { LinearRegex } from './linear-regex.ts';
import { RegexSyntaxError } from './regex-syntax-error.ts';

const first = (pattern: string, text: string, options: ConstructorParameters<typeof LinearRegex>[1] = {}) => new LinearRegex(pattern, options).exec(text)?.groups[0];

describe('LinearRegex syntax beyond what JavaScript accepts (RE2, POSIX and grep usage)', () => {
  it.each([
    ['[[:alpha:]]+', 'ab12', 'ab'],
    ['[[:digit:][:space:]]+', 'x1 2y', '1 2'],
    ['[[:^digit:]]+', '12ab3', 'ab'],
    ['[^[:alnum:]]+', 'ab-_c', '-_'],
    ['[[:upper:][:punct:]]+', 'aB!C?d', 'B!C?'],
    ['[[:xdigit:]]+', 'xx0fAzz', '0fA'],
    ['[[:word:]]+', '-a_1-', 'a_1'],
    ['[[:blank:]]+', 'a \t b', ' \t '],
    ['[[:cntrl:]]', 'a\u0007', '\u0007'],
    ['[[:print:]]+', '\u0001ab c\u0002', 'ab c'],
    ['[[:graph:]]+', ' ab c', 'ab'],
    ['[[:lower:]]+', 'ABcdE', 'cd'],
    ['[[:ascii:]]+', 'éab', 'ab'],
  ])('POSIX class %s in %j finds %j', (pattern, text, expected) => {
    expect(first(pattern, text)).toBe(expected);
  });

  it('folds case in POSIX classes under ignoreCase, as RE2 and grep -i do', () => {
    expect(first('[[:upper:]]+', 'abC', { ignoreCase: true })).toBe('abC');
    expect(first('[[:^alpha:]]+', 'ab12', { ignoreCase: true })).toBe('12');
  });

  it.each([
    ['function.*{', 'function f() {', 'function f() {'],
    ['a{', 'a{', 'a{'],
    ['{x}', '{x}', '{x}'],
    ['a{,2}', 'a{,2}', 'a{,2}'],
    ['a{1', 'a{1', 'a{1'],
    ['x}', 'x}', 'x}'],
    ['a]', 'a]', 'a]'],
    ['[]a]+', 'x]a]', ']a]'],
    ['[^]a]+', ']abc', 'bc'],
    ['[a[]+', 'x[a[', '[a['],
  ])('%s is literal where it cannot be syntax: in %j finds %j', (pattern, text, expected) => {
    expect(first(pattern, text)).toBe(expected);
  });

  it('applies inline flags to the rest of their group, or to their own group', () => {
    expect(first('(?i)abc', 'xABC')).toBe('ABC');
    expect(first('a(?i)b', 'aB')).toBe('aB');
    expect(first('a(?i)b', 'AB')).toBeUndefined();
    expect(first('(?i:b)c', 'Bc')).toBe('Bc');
    expect(first('(?i:b)c', 'BC')).toBeUndefined();
    expect(first('(a(?i)b)c', 'aBc')).toBe('aBc');
    expect(first('(a(?i)b)c', 'aBC')).toBeUndefined();
    expect(first('a(?i)b|c', 'C')).toBe('C');
    expect(first('(?-i)a', 'A', { ignoreCase: true })).toBeUndefined();
    expect(first('(?i-s:a.)', 'A\n', { dotAll: true })).toBeUndefined();
    expect(first('(?m)^b', 'a\nb')).toBe('b');
    expect(first('(?s)a.b', 'a\nb')).toBe('a\nb');
    expect(first('(?is)A.B', 'a\nb')).toBe('a\nb');
    expect(first('(?i)\\bſ', 'S')).toBe('S');
  });

  it('anchors \\A and \\z to the whole text, whatever multiline says', () => {
    expect(first('\\Ab', 'a\nb', { multiline: true })).toBeUndefined();
    expect(first('^b', 'a\nb', { multiline: true })).toBe('b');
    expect(first('a\\z', 'a\nb', { multiline: true })).toBeUndefined();
    expect(first('b\\z', 'a\nb', { multiline: true })).toBe('b');
  });

  it('reads RE2 escapes and escaped ASCII punctuation', () => {
    expect(first('\\x{1F600}', 'a😀')).toBe('😀');
    expect(first('\\a', 'x\u0007')).toBe('\u0007');
    expect(first('a\\ b', 'a b')).toBe('a b');
    expect(first('\\<\\#\\%\\"', '<#%"')).toBe('<#%"');
    expect(first('[\\b]', 'a\bb')).toBe('\b');
  });

  it('numbers named groups with the others, in both spellings', () => {
    const regex = new LinearRegex('(?P<key>\\w+)=(\\w+)(?<rest>.*)');
    expect(regex.groupCount).toBe(3);
    expect([...regex.groupNames]).toEqual([
      ['key', 1],
      ['rest', 3],
    ]);
    expect(regex.exec('a=b;c')?.groups).toEqual(['a=b;c', 'a', 'b', ';c']);
  });

  it('accepts a quantified assertion, as RE2 does', () => {
    expect(first('^*a', 'ba')).toBe('a');
    expect(first('x\\b+', 'x y')).toBe('x');
  });

  it('reports only the groups asked for', () => {
    const match = new LinearRegex('(a)(b)(c)').exec('abc', 0, { groups: 1 });
    expect(match?.groups).toEqual(['abc', 'a']);
    expect(match?.spans).toEqual([
      [0, 3],
      [0, 1],
    ]);
  });
});

describe('LinearRegex refusals', () => {
  it.each([
    ['(a)\\1', 'backreferences are not supported: `\\1`'],
    ['\\9', 'backreferences are not supported: `\\9`'],
    ['(?<n>a)\\k<n>', 'backreferences are not supported: `\\k`'],
    ['(?P<n>a)(?P=n)', 'backreferences are not supported: `(?P=`'],
    ['a(?=b)', 'lookahead is not supported: `(?=`'],
    ['a(?!b)', 'lookahead is not supported: `(?!`'],
    ['(?<=a)b', 'lookbehind is not supported: `(?<=`'],
    ['(?<!a)b', 'lookbehind is not supported: `(?<!`'],
    ['\\p{L}', 'Unicode property classes are not supported: `\\p`'],
    ['\\PL', 'Unicode property classes are not supported: `\\P`'],
    ['a{1001}', 'repetition count over 1,000: `{1001}`'],
    ['a{2,1001}', 'repetition count over 1,000: `{2,1001}`'],
    ['a{99999999999999999999}', 'repetition count over 1,000: `{99999999999999999999}`'],
    ['a{3,2}', 'invalid repetition range (minimum over maximum): `{3,2}`'],
    ['(a{1000}){1000}', 'pattern too large: its repetitions expand past 50,000 instructions'],
    ['(abc', 'missing closing ): `(abc`'],
    ['a(b(c)', 'missing closing ): `(b(c)`'],
    ['abc)', 'unmatched ): `abc)`'],
    ['[abc', 'missing closing ]: `[abc`'],
    ['[]', 'missing closing ]: `[]`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[\\d-z]', 'invalid character class range: `\\d-z`'],
    ['[a-\\w]', 'invalid character class range: `a-\\w`'],
    ['*a', 'missing argument to repetition operator: `*`'],
    ['a|+', 'missing argument to repetition operator: `+`'],
    ['(?', 'invalid or unsupported group syntax: `(?`'],
    ['{2}', 'missing argument to repetition operator: `{2}`'],
    ['a**', 'bad repetition operator: `**`'],
    ['a*+', 'bad repetition operator: `*+`'],
    ['a???', 'bad repetition operator: `???`'],
    ['a{2}{3}', 'bad repetition operator: `{2}{3}`'],
    ['abc\\', 'trailing backslash at end of expression: `\\`'],
    ['\\q', 'invalid escape sequence: `\\q`'],
    ['\\é', 'invalid escape sequence: `\\é`'],
    ['\\x4', 'invalid escape sequence: `\\x`'],
    ['\\x{110000}', 'invalid escape sequence (beyond U+10FFFF): `\\x{110000}`'],
    ['\\012', 'octal escapes are not supported: `\\0`'],
    ['\\c1', 'invalid control escape: `\\c`'],
    ['[\\B]', 'invalid escape sequence in a character class: `\\B`'],
    ['[[:alfa:]]', 'unknown POSIX class: `[:alfa:]`'],
    ['(?<1a>x)', 'invalid group name: `(?<1`'],
    ['(?<n>a)(?<n>b)', 'duplicate group name: `(?<n>`'],
    ['(?x)a', 'invalid or unsupported group syntax: `(?x`'],
    ['(?#note)a', 'invalid or unsupported group syntax: `(?#`'],
    ['(?)', 'invalid or unsupported group syntax: `(?)`'],
    [`${'('.repeat(1001)}a${')'.repeat(1001)}`, 'groups nested deeper than 1,000: `(`'],
  ])('%s: %s', (pattern, message) => {
    let error: unknown;
    try {
      new LinearRegex(pattern);
    } catch (thrown) {
      error = thrown;
    }
    expect(RegexSyntaxError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(message);
  });

  it('cuts a long fragment in a message', () => {
    expect(() => new LinearRegex(`(${'a'.repeat(100)}`)).toThrow(`missing closing ): \`(${'a'.repeat(39)}…\``);
  });

  it('accepts nesting up to 1,000 groups and a program up to the instruction limit', () => {
    expect(new LinearRegex(`${'('.repeat(1000)}a${')'.repeat(1000)}`).exec('a')?.groups.length).toBe(1001);
    const large = new LinearRegex('x(?:a{1000}){40}');
    expect(large.test(`x${'a'.repeat(39_999)}`)).toBe(false);
    expect(large.test(`x${'a'.repeat(40_000)}`)).toBe(true);
  });
});
