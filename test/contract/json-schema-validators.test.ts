import { describe, expect, it } from 'vitest';
import { validateJson, validateJsonSchema } from 'ghostlight';

describe('the two JSON Schema validators run in every runtime', () => {
  it('the subset validator speaks the seeds’ messages', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 10 } } },
      required: ['city'],
      additionalProperties: false,
    };
    expect(validateJson(schema, { days: [0, 11, 'x'], surprise: true })).toEqual([
      '$.city is required',
      '$.days[0] must be at least 1',
      '$.days[1] must be at most 10',
      '$.days[2] must be integer',
      '$.surprise is not allowed',
    ]);
  });

  it('the full validator handles $ref, prefixItems and unevaluatedProperties, with JSON paths', () => {
    const schema = {
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      type: 'object',
      properties: { at: { $ref: '#/$defs/point' }, label: { type: 'string', format: 'email' } },
      required: ['at'],
      unevaluatedProperties: false,
    };
    expect(validateJsonSchema(schema, { at: [1, 2], label: 'not an email (format is an annotation)' })).toEqual([]);
    const errors = validateJsonSchema(schema, { at: [1, 'two', 3], extra: true });
    expect(errors.some((error) => error.startsWith('$.at[1] '))).toBe(true);
    expect(errors.some((error) => error.startsWith('$ ') || error.startsWith('$.extra'))).toBe(true);
  });
});
