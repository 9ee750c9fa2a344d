import { describe, expect, it } from 'vitest';
import { parseExpression, resolveTemplate, templateReferences } from './templates.ts';

describe('templates', () => {
  const scope = { input: { jobId: 'j-7', tags: ['a', 'b'] }, outputs: new Map<string, unknown>([['fetch', { candidates: [{ id: 'c1', score: 0.9 }] }], ['n', 3]]) };

  it('parses input and step references with property and index paths', () => {
    expect(parseExpression(' input.tags[1] ')).toEqual({ root: 'input', path: ['tags', 1], text: 'input.tags[1]' });
    expect(parseExpression('steps.filter-top.output.top[0].id')).toEqual({ root: { step: 'filter-top' }, path: ['top', 0, 'id'], text: 'steps.filter-top.output.top[0].id' });
    expect(() => parseExpression('steps.a.result')).toThrow('"{{ steps.a.result }}" must start with input or steps.<id>.output');
    expect(() => parseExpression('input..x')).toThrow('"{{ input..x }}" has an invalid path at "..x"');
  });

  it('keeps the type of a whole-string template and interpolates others as text', () => {
    expect(resolveTemplate('{{ steps.fetch.output.candidates }}', scope)).toEqual([{ id: 'c1', score: 0.9 }]);
    expect(resolveTemplate('{{steps.n.output}}', scope)).toBe(3);
    expect(resolveTemplate('job {{ input.jobId }} has {{ steps.n.output }} of {{ input.tags }}', scope)).toBe('job j-7 has 3 of ["a","b"]');
    expect(resolveTemplate({ a: ['{{ input.missing }}', '{{ input.jobId }}'], b: '{{ input.missing }}', c: 1 }, scope)).toEqual({ a: [null, 'j-7'], c: 1 });
  });

  it('does not read inherited properties, and a __proto__ key stays a property', () => {
    expect(resolveTemplate('{{ input.constructor }}', scope)).toBeUndefined();
    const resolved = resolveTemplate(JSON.parse('{"__proto__": {"polluted": "{{ input.jobId }}"}}'), scope) as Record<string, unknown>;
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.keys(resolved)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('lists every reference and rejects unbalanced braces', () => {
    expect(templateReferences({ x: ['{{ input.a }} and {{ steps.b.output }}'] }).map((reference) => reference.text)).toEqual(['input.a', 'steps.b.output']);
    expect(() => templateReferences('{{ input.a }} }}')).toThrow('has an unbalanced {{ or }}');
  });
});
