import { describe, expect, it } from 'vitest';
import { DEFAULT_MCP_LIMITS } from './mcp-limits.ts';
import { checkSchemaPatterns, checkSchemaReferences } from './mcp-schema-checks.ts';

describe('MCP schema checks walk schema positions only', () => {
  it('treats properties named pattern or $ref, and const/enum/default/examples values, as data', () => {
    const schema = {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A glob', default: { pattern: 42 } },
        $ref: { type: 'string' },
        mode: { enum: [{ pattern: 1 }], const: { $ref: '#/nowhere' }, examples: [{ pattern: null }] },
      },
      required: ['pattern'],
    };
    expect(() => checkSchemaPatterns(schema, 'inputSchema', DEFAULT_MCP_LIMITS)).not.toThrow();
    expect(() => checkSchemaReferences(schema, 'inputSchema')).not.toThrow();
  });

  it('still checks pattern and $ref keywords wherever a subschema can stand', () => {
    const bad = (inner: object) => ({ type: 'object', properties: { a: { anyOf: [{ items: inner }] } } });
    expect(() => checkSchemaPatterns(bad({ pattern: 42 }), 'inputSchema', DEFAULT_MCP_LIMITS)).toThrow('MCP tool inputSchema pattern must be a string');
    expect(() => checkSchemaPatterns(bad({ pattern: '(' }), 'inputSchema', DEFAULT_MCP_LIMITS)).toThrow('contains an invalid pattern');
    expect(() => checkSchemaReferences(bad({ $ref: '#/$defs/missing' }), 'inputSchema')).toThrow('unresolved reference');
    expect(() => checkSchemaReferences({ $defs: { x: { type: 'string' } }, properties: { a: { $ref: '#/$defs/x' } } }, 'inputSchema')).not.toThrow();
  });
});
