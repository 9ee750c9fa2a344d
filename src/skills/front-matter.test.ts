import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './front-matter.ts';
import { parseSkill } from './parse-skill.ts';

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
    expect(parseFrontMatter('---\nname: a\ndescription: Triggers on: "AI SDK", ends with:\n---\nx')).toMatchObject({ ok: true, data: { description: 'Triggers on: "AI SDK", ends with:' }, repaired: true });
  });

  it('repairs only top-level plain values, and reports the first error when that does not help', () => {
    expect(parseFrontMatter('---\nname: a\nmetadata:\n  note: see: here\n---\nx')).toEqual({ ok: false, code: 'invalid-yaml', detail: 'bad indentation of a mapping entry' });
    expect(parseFrontMatter('---\nname: a\ndescription: "quoted": then: more\n---\nx')).toMatchObject({ ok: false, code: 'invalid-yaml' });
    expect(parseFrontMatter('---\nname: a\ndescription: "Use when: quoted"\n---\nx')).toMatchObject({ ok: true, repaired: false });
  });

  it('refuses aliases with the same detail as before, and allows a lone anchor', () => {
    expect(detail('a: &x 1\nb: *x')).toBe('Alias resolution is disabled');
    expect(detail('a: &x [1]\nb: [*x]')).toBe('Alias resolution is disabled');
    expect(detail('a: *missing')).toBe('Alias resolution is disabled');
    expect(parseFrontMatter('---\na: &x 1\n---\nx')).toMatchObject({ ok: true, data: { a: 1 } });
  });

  it('refuses custom and non-core tags, even the non-specific !, but reads explicit core tags', () => {
    expect(detail('a: !foo 1')).toBe('Unresolved tag: !foo');
    expect(detail('a: !ruby/object:Foo {x: 1}')).toBe('Unresolved tag: !ruby/object:Foo');
    expect(detail('a: !<tag:example.com,2000:x> y')).toBe('Unresolved tag: tag:example.com,2000:x');
    expect(detail('a: !!binary aGVsbG8=')).toBe('Tag tag:yaml.org,2002:binary is not allowed');
    expect(detail('a: !!timestamp 2024-01-01')).toBe('Tag tag:yaml.org,2002:timestamp is not allowed');
    expect(detail('a: !!merge <<')).toBe('Tag tag:yaml.org,2002:merge is not allowed');
    expect(detail('a: ! 1')).toBe('Tag ! is not allowed');
    expect(detail('!foo\na: 1')).toBe('Unresolved tag: !foo');
    expect(detail('a: &x 1\nb: *x\nc: !foo z')).toBe('Unresolved tag: !foo');
    expect(parseFrontMatter('---\na: !!str 1\nb: !<tag:yaml.org,2002:int> "12"\nc: !!map {d: !!seq [!!null ""]}\n---\nx')).toMatchObject({ ok: true, data: { a: '1', b: 12, c: { d: [null] } } });
    expect(detail('a: !!int x')).toBe('cannot resolve a node with !<tag:yaml.org,2002:int> explicit tag');
  });

  it('refuses non-finite numbers, including numerals too large for a number', () => {
    for (const value of ['.inf', '-.Inf', '.nan', '[1, .INF]', '1e400', `-${'9'.repeat(400)}`, `0x${'f'.repeat(300)}`, '!!float 1e400']) {
      expect(detail(`a: ${value}`), value).toBe('Non-finite numbers are not allowed');
    }
    expect(parseFrontMatter('---\na: "1e400"\nb: 1e308\nc: .5\nd: 0o17\ne: 0x1F\nf: 1_000\n---\nx')).toMatchObject({ ok: true, data: { a: '1e400', b: 1e308, c: 0.5, d: 15, e: 31, f: '1_000' } });
  });

  it('gives any YAML value back, so a document that is not a mapping is for the caller to refuse', () => {
    expect(parseFrontMatter('---\njust text\n---\nx')).toMatchObject({ ok: true, data: 'just text' });
    expect(parseFrontMatter('---\n- a\n- b\n---\nx')).toMatchObject({ ok: true, data: ['a', 'b'] });
    expect(parseFrontMatter('---\n42\n---\nx')).toMatchObject({ ok: true, data: 42 });
    expect(parseFrontMatter('---\n# only a comment\n---\nx')).toMatchObject({ ok: true, data: null });
    expect(parseFrontMatter('---\n\n---\nx')).toMatchObject({ ok: true, data: null });
    expect(detail('a: 1\n--- b')).toBe('Source contains multiple documents');
    for (const yaml of ['just text', '- name: a', '[a, b]', '42']) {
      expect(parseSkill(`---\n${yaml}\n---\nx`, 'a', 'l').diagnostics.map((diagnostic) => diagnostic.code), yaml).toEqual(['front-matter-not-mapping']);
    }
  });

  it('keys mappings as before: plain objects, null as "", later duplicates in the first place', () => {
    const result = parseFrontMatter('---\na: 1\nb: 2\na: 3\n~: n\n1.0: one\ntrue: t\n__proto__: {polluted: true}\n---\nx');
    expect(result).toMatchObject({ ok: true, data: { a: 3, b: 2, '': 'n', 1: 'one', true: 't' } });
    const data = (result as { data: Record<string, unknown> }).data;
    expect(Object.keys(data)).toEqual(['1', 'a', 'b', '', 'true', '__proto__']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(detail('? [a]\n: 1')).toBe('Collections are not allowed as mapping keys');
  });

  it('hands out deep-frozen values, cached by their text', () => {
    const text = '---\nname: frozen\nmetadata:\n  tags: [a, {b: c}]\n---\nx';
    const first = parseFrontMatter(text) as { data: { metadata: { tags: [string, object] } } };
    expect(Object.isFrozen(first.data)).toBe(true);
    expect(Object.isFrozen(first.data.metadata.tags)).toBe(true);
    expect(Object.isFrozen(first.data.metadata.tags[1])).toBe(true);
    expect((parseFrontMatter(text) as { data: unknown }).data).toBe(first.data);
  });

  it('keeps every error detail to one line', () => {
    const broken = ['name: [', 'a: "\\x"', '\ta: 1', 'a:\n  b: 1\n c: 2', 'a: |\n  x\n y', "a: 'open", 'a: {', 'a: - b', 'a: 1\nb', `a: ${'['.repeat(200)}${']'.repeat(200)}`];
    for (const yaml of broken) expect(detail(yaml), yaml).toMatch(/^[^\n]+$/);
  });
});

/** The detail of a front matter that must not parse. */
function detail(yaml: string): string {
  const result = parseFrontMatter(`---\n${yaml}\n---\nbody`);
  if (result.ok) throw new Error(`parsed: ${JSON.stringify(result.data)}`);
  expect(result.code).toBe('invalid-yaml');
  return result.detail;
}
