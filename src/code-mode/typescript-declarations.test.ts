import { describe, expect, it } from 'vitest';
import { CodeCatalog, normalizeCodeName } from './code-catalog.ts';
import { renderDeclarations, schemaToTypeScript } from './typescript-declarations.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';

const tool = (name: string, input: object, output?: object, description = 'A tool.') => ({
  name,
  description,
  input: resolveSchema(input, name),
  output: output === undefined ? undefined : resolveSchema(output, name),
});

describe('TypeScript declarations', () => {
  it('render the seeds example', () => {
    const catalog = new CodeCatalog([
      tool('search-tool', {
        type: 'object',
        properties: { query: { type: 'string', description: 'Search query' }, limit: { type: ['integer', 'null'] }, mode: { enum: ['fast', 'thorough'] } },
        required: ['query'],
        additionalProperties: false,
      }, undefined, 'Search safely.'),
    ]);
    const declarations = renderDeclarations(catalog.entries);
    expect(declarations).toContain('search_tool(args: {');
    expect(declarations).toContain('query: string;');
    expect(declarations).toContain('limit?: number | null;');
    expect(declarations).toContain('mode?: "fast" | "thorough";');
    expect(declarations).toBe(`declare const tools: {
  /** Search safely. */
  search_tool(args: {
    /** Search query */
    query: string;
    limit?: number | null;
    mode?: "fast" | "thorough";
  }): Promise<unknown>;
};`);
  });

  it('type the result from the output schema', () => {
    const catalog = new CodeCatalog([tool('get', { type: 'object' }, { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] })]);
    expect(renderDeclarations(catalog.entries)).toContain('get(args: Record<string, unknown>): Promise<{\n    n: number;\n  }>;');
  });

  it('follow the seeds rules for each keyword', () => {
    expect(schemaToTypeScript({ const: 'x' })).toBe('"x"');
    expect(schemaToTypeScript({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('string | number');
    expect(schemaToTypeScript({ allOf: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, { type: 'string' }] })).toBe('(string | null) & string');
    expect(schemaToTypeScript({ type: 'object', additionalProperties: true })).toBe('{\n  [key: string]: unknown;\n}');
    expect(schemaToTypeScript({ type: 'object', additionalProperties: { type: 'number' } })).toBe('{\n  [key: string]: number;\n}');
    expect(schemaToTypeScript({ type: 'object', additionalProperties: false })).toBe('Record<string, never>');
    expect(schemaToTypeScript({ type: 'object' })).toBe('Record<string, unknown>');
    expect(schemaToTypeScript({ type: 'object', properties: { 'a-b': { type: 'boolean' } }, required: ['a-b'] })).toBe('{\n  "a-b": boolean;\n}');
    expect(schemaToTypeScript({ type: 'array' })).toBe('unknown[]');
    expect(schemaToTypeScript({ type: 'array', items: { type: 'integer' } })).toBe('Array<number>');
    expect(schemaToTypeScript({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] })).toBe('[string, number]');
    expect(schemaToTypeScript({ type: 'array', prefixItems: [{ type: 'string' }] })).toBe('[string]');
    expect(schemaToTypeScript({ properties: { a: { type: 'string' } } })).toBe('{\n  a?: string;\n}');
    expect(schemaToTypeScript({})).toBe('unknown');
    expect(schemaToTypeScript({ type: 'object', properties: { a: { type: 'string', description: 'ends */ here\n and   wraps' } } })).toBe(
      '{\n  /** ends *\\/ here and wraps */\n  a?: string;\n}',
    );
  });
});

describe('code-mode names', () => {
  it('normalise to identifiers and keep tools unthenable', () => {
    expect(normalizeCodeName('gateway___read-value')).toBe('gateway___read_value');
    expect(normalizeCodeName('9lives')).toBe('_9lives');
    expect(normalizeCodeName('then')).toBe('_then');
    expect(normalizeCodeName('call')).toBe('_call');
    expect(normalizeCodeName('$ok')).toBe('$ok');
  });

  it('reject collisions and reserved names', () => {
    expect(() => new CodeCatalog([tool('one-name', {}), tool('one_name', {})])).toThrow('Code-mode tool names "one-name" and "one_name" both normalize to "one_name"');
    expect(() => new CodeCatalog([tool('stop', {})])).toThrow('Code-mode tool name "stop" conflicts with reserved tool "stop"');
  });

  it('resolve identifiers, tool names and the tools. prefix', () => {
    const catalog = new CodeCatalog([tool('read-value', {})]);
    expect(catalog.resolve('read_value')?.toolName).toBe('read-value');
    expect(catalog.resolve('read-value')?.toolName).toBe('read-value');
    expect(catalog.resolve('tools.read_value')?.toolName).toBe('read-value');
    expect(catalog.resolve('nope')).toBeUndefined();
  });
});
