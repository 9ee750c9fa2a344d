import { jsonSchema } from 'ai';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../error/configuration-error.ts';
import { resolveSchema } from './resolve-schema.ts';

describe('resolveSchema', () => {
  it('converts a bare valibot schema instead of silently failing', async () => {
    const schema = resolveSchema(v.strictObject({ city: v.pipe(v.string(), v.minLength(2)) }), 'test');
    expect(schema.jsonSchema).toEqual({ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'], additionalProperties: false });
    await expect(schema.check({ city: 'Oslo' })).resolves.toEqual({ success: true, value: { city: 'Oslo' } });
    await expect(schema.check({})).resolves.toEqual({ success: false, issues: ['$.city is required'] });
  });

  it('runs valibot checks JSON Schema cannot express and returns the parsed value', async () => {
    const schema = resolveSchema(v.object({ email: v.pipe(v.string(), v.email()), tags: v.optional(v.array(v.string()), []) }), 'test');
    await expect(schema.check({ email: 'a@b.co' })).resolves.toEqual({ success: true, value: { email: 'a@b.co', tags: [] } });
    const failed = await schema.check({ email: 'nope' });
    expect(failed.success).toBe(false);
    expect((failed as { issues: string[] }).issues[0]).toMatch(/^\$\.email /);
  });

  it('accepts Standard JSON Schemas, AI SDK schemas and plain JSON Schema', async () => {
    const standard = resolveSchema(toStandardJsonSchema(v.object({ n: v.number() })), 'test');
    expect(standard.jsonSchema).toMatchObject({ type: 'object', required: ['n'] });
    const aiSdk = resolveSchema(jsonSchema({ type: 'object', properties: { n: { type: 'number' } } }), 'test');
    await expect(aiSdk.check({ n: 'x' })).resolves.toEqual({ success: false, issues: ['$.n must be number'] });
    const plain = resolveSchema({ type: 'object' }, 'test');
    await expect(plain.check([])).resolves.toEqual({ success: false, issues: ['$ must be object'] });
  });

  it('rejects what cannot describe itself', () => {
    const opaque = { '~standard': { vendor: 'mystery', version: 1, validate: () => ({ value: 1 }) } };
    expect(() => resolveSchema(opaque, 'The input schema of tool x')).toThrow(ConfigurationError);
    expect(() => resolveSchema(42 as unknown as object, 'x')).toThrow(ConfigurationError);
  });
});
