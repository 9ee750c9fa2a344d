import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './front-matter.ts';

describe('parseFrontMatter', () => {
  it('splits front matter from the body with the seeds\' pattern', () => {
    expect(parseFrontMatter('---\nname: a\n---\nBody\n')).toEqual({ ok: true, data: { name: 'a' }, body: 'Body\n', repaired: false });
    expect(parseFrontMatter('---  \r\nname: a\r\n---\r\nBody')).toMatchObject({ ok: true, data: { name: 'a' }, body: 'Body' });
  });

  it('needs both delimiter lines, the closing one ended by a newline', () => {
    expect(parseFrontMatter('instructions')).toMatchObject({ ok: false, code: 'missing-front-matter' });
    expect(parseFrontMatter('---\nname: a\n---')).toMatchObject({ ok: false, code: 'missing-front-matter' });
    expect(parseFrontMatter('---\n---\nbody')).toMatchObject({ ok: false, code: 'missing-front-matter' });
    expect(parseFrontMatter(' ---\nname: a\n---\nbody')).toMatchObject({ ok: false, code: 'missing-front-matter' });
  });

  it('rejects malformed YAML, aliases, custom tags and non-plain values', () => {
    expect(parseFrontMatter('---\nname: [\ndescription: Broken\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
    expect(parseFrontMatter('---\na: &x 1\nb: *x\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
    expect(parseFrontMatter('---\na: !ruby/object:Foo {x: 1}\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
    expect(parseFrontMatter('---\na: !!binary aGVsbG8=\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
    expect(parseFrontMatter('---\na: !!set {x, y}\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
  });

  it('reads YAML 1.2 core scalars (yes stays text, dates stay text)', () => {
    expect(parseFrontMatter('---\na: yes\nb: 2024-01-01\nc: 12\nd: true\ne: ~\n---\nx')).toMatchObject({ ok: true, data: { a: 'yes', b: '2024-01-01', c: 12, d: true, e: null } });
  });

  it('lets a later duplicate key win, as Ruby\'s YAML does', () => {
    expect(parseFrontMatter('---\nname: a\nname: b\n---\nx')).toMatchObject({ ok: true, data: { name: 'b' } });
  });

  it('quotes top-level values with an unquoted ": " and says it did', () => {
    const result = parseFrontMatter("---\nname: pdf\ndescription: Use this skill when: the user asks about PDFs, it's quick\n---\nx");
    expect(result).toEqual({ ok: true, data: { name: 'pdf', description: "Use this skill when: the user asks about PDFs, it's quick" }, body: 'x', repaired: true });
  });
});
