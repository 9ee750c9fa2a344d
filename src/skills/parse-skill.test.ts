import { describe, expect, it } from 'vitest';
import { parseSkill } from './parse-skill.ts';

const codes = (text: string | Uint8Array, folder = 'refund_guide') =>
  parseSkill(text, folder, `/skills/${folder}/SKILL.md`).diagnostics.map((diagnostic) => `${diagnostic.severity}:${diagnostic.code}`);

describe('parseSkill', () => {
  it('loads the seeds\' refund_guide with its fields', () => {
    const text = [
      '---',
      'name: refund_guide',
      'description: Determine which refund guidance applies to a customer request.',
      'allowed-tools:',
      '  - help_center_lookup',
      'compatibility: Requires the refunds help-center collection.',
      '---',
      '',
      '# Apply the refund guidance',
      '',
      '1. Load the current refund entry with `help_center_lookup`.',
      '',
    ].join('\n');
    const { skill } = parseSkill(text, 'refund_guide', '/skills/refund_guide/SKILL.md');
    expect(skill).toEqual({
      name: 'refund_guide',
      description: 'Determine which refund guidance applies to a customer request.',
      instructions: '# Apply the refund guidance\n\n1. Load the current refund entry with `help_center_lookup`.',
      location: '/skills/refund_guide/SKILL.md',
      folder: 'refund_guide',
      allowedTools: ['help_center_lookup'],
      compatibility: 'Requires the refunds help-center collection.',
      license: undefined,
      metadata: {},
    });
    expect(codes(text)).toEqual(['warning:name-format', 'warning:allowed-tools-format']);
  });

  it('trims name and description, and reads scalars as text', () => {
    const { skill } = parseSkill('---\nname: "  review  "\ndescription: 42\n---\n\n  body  \n', 'review', 'x');
    expect(skill).toMatchObject({ name: 'review', description: '42', instructions: 'body' });
  });

  it('skips with the seeds\' reasons', () => {
    expect(codes('---\nname: a b\ndescription: d\n---\nx')).toEqual(['skip:unsafe-name']);
    expect(codes('---\nname: [a]\ndescription: d\n---\nx')).toEqual(['skip:unsafe-name']);
    expect(codes('---\nname: a\ndescription: "one\\ntwo"\n---\nx')).toEqual(['skip:multiline-description']);
    expect(codes('---\nname: a\ndescription: "  "\n---\nx')).toEqual(['skip:description-required']);
    expect(codes('---\nname: a\ndescription: [x]\n---\nx')).toEqual(['skip:description-required']);
    expect(codes('---\n# only a comment\n---\nx')).toEqual(['skip:name-required']);
    expect(codes('---\njust text\n---\nx')).toEqual(['skip:front-matter-not-mapping']);
    expect(codes(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff]))).toEqual(['skip:invalid-utf8']);
  });

  it('loads what only the specification forbids, with warnings', () => {
    const long = 'a'.repeat(65);
    expect(codes(`---\nname: ${long}\ndescription: d\n---\nx`, long)).toEqual(['warning:name-too-long']);
    expect(codes('---\nname: PDF--Tools-\ndescription: d\n---\nx', 'PDF--Tools-')).toEqual(['warning:name-format']);
    expect(codes('---\nname: other\ndescription: d\n---\nx')).toEqual(['warning:name-mismatch']);
    expect(codes(`---\nname: refund-guide\ndescription: ${'d'.repeat(1025)}\n---\nx`, 'refund-guide')).toEqual(['warning:description-too-long']);
    expect(codes(`---\nname: a\ndescription: d\ncompatibility: ${'c'.repeat(501)}\nlicense: 3\nmetadata:\n  version: 1\nallowed-tools: [Read]\ndisable-model-invocation: true\n---\nx`, 'a')).toEqual([
      'warning:compatibility-format',
      'warning:license-format',
      'warning:metadata-format',
      'warning:allowed-tools-format',
      'warning:unknown-field',
    ]);
    expect(codes('---\nname: a\ndescription: Use when: asked\n---\nx', 'a')).toEqual(['warning:yaml-repaired']);
  });

  it('drops a UTF-8 byte-order mark, from bytes or text', () => {
    const text = '\uFEFF---\nname: a\ndescription: d\n---\nx';
    expect(parseSkill(text, 'a', 'l').skill?.name).toBe('a');
    expect(parseSkill(new TextEncoder().encode(text), 'a', 'l').skill?.name).toBe('a');
  });

  it('keeps every specification field', () => {
    const { skill, diagnostics } = parseSkill('---\nname: pdf-processing\ndescription: Extract PDF text.\nlicense: Apache-2.0\nmetadata:\n  author: example-org\n  version: "1.0"\nallowed-tools: Bash(git:*) Read\n---\nx', 'pdf-processing', 'l');
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({ license: 'Apache-2.0', metadata: { author: 'example-org', version: '1.0' }, allowedTools: ['Bash(git:*)', 'Read'] });
  });
});
