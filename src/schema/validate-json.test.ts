import { describe, expect, it } from 'vitest';
import { validateJson } from './validate-json.ts';

describe('validateJson', () => {
  const weather = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2, pattern: '^[A-Z]' },
      units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 10 }, maxItems: 2 },
    },
    required: ['city'],
    additionalProperties: false,
  };

  it('reports each problem with its path, in the seeds’ words', () => {
    expect(validateJson(weather, { units: 'kelvin', days: ['tomorrow'], surprise: true })).toEqual([
      '$.city is required',
      '$.units must be one of "celsius", "fahrenheit"',
      '$.days[0] must be integer',
      '$.surprise is not allowed',
    ]);
    expect(validateJson(weather, 'Paris')).toEqual(['$ must be object']);
    expect(validateJson(weather, { city: 'p', days: [0, 11, 3] })).toEqual([
      '$.city must have at least 2 characters',
      '$.city has an invalid format',
      '$.days must contain at most 2 items',
      '$.days[0] must be at least 1',
      '$.days[1] must be at most 10',
    ]);
    expect(validateJson(weather, { city: 'Paris', units: 'celsius', days: [2] })).toEqual([]);
  });

  it('handles type lists, null, const, combinators and local references', () => {
    const schema = {
      $defs: { id: { type: 'string', pattern: '^[a-z]+$' } },
      type: 'object',
      properties: {
        limit: { type: ['integer', 'null'] },
        id: { $ref: '#/$defs/id' },
        kind: { const: 'search' },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    };
    expect(validateJson(schema, { limit: null, id: 'abc', kind: 'search', either: 3 })).toEqual([]);
    expect(validateJson(schema, { limit: 1.5, id: 'ABC', kind: 'other', either: true })).toEqual([
      '$.limit must be integer or null',
      '$.id has an invalid format',
      '$.kind must be "search"',
      '$.either must match at least one allowed schema',
    ]);
    expect(validateJson({ $ref: '#/$defs/missing' }, 1)).toEqual(['$ has an unresolvable schema reference']);
    expect(validateJson({ type: 'string', pattern: '(' }, 'x')).toEqual(['$ has an invalid schema pattern']);
  });

  it('counts string length in code points', () => {
    expect(validateJson({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
  });
});
