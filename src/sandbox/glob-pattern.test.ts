import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern.ts';

describe('compileGlob', () => {
  it.each([
    ['*.md', 'a.md', true],
    ['*.md', 'notes/a.md', false],
    ['**/*.md', 'a.md', true],
    ['**/*.md', 'notes/deep/a.md', true],
    ['notes/**', 'notes', false],
    ['notes/**', 'notes/a/b', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['?.txt', 'ab.txt', false],
    ['[a-c]*', 'banana', true],
    ['[!a-c]*', 'banana', false],
    ['*.{md,txt}', 'x.txt', true],
    ['{a,b{c,d}}/x', 'bd/x', true],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
    ['**/.*', 'deep/.hidden', true],
    ['[', '[', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected);
  });

  it('stays linear on patterns that make backtracking matchers explode', () => {
    const matcher = compileGlob(`${'*a'.repeat(30)}b`);
    expect(matcher('a'.repeat(200))).toBe(false);
    expect(compileGlob('**/**/**/**/**/x')('a/'.repeat(200) + 'y')).toBe(false);
  });

  it('refuses empty, overlong and exploding patterns', () => {
    expect(() => compileGlob('')).toThrow('Glob pattern must not be empty');
    expect(() => compileGlob('x'.repeat(1_001))).toThrow('Glob pattern is too long');
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow('Glob pattern has too many alternatives');
  });
});
