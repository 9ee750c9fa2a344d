import { ProtocolError } from '../error/protocol-error.ts';
import { boundedName } from '../registry/tool-id.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { isPlainObject } from '../util/json.ts';
import type { McpLimits } from './mcp-limits.ts';
import { checkSchemaPatterns, checkSchemaReferences } from './mcp-schema-checks.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

/**
 * One tool as the server advertised it, deeply frozen. `sourceName` is what
 * is sent back to the server; `name` is the initial model-facing name
 * (`mapTool` may choose another).
 */
export interface McpDefinition {
  /** The server's name for the tool, used for dispatch. */
  readonly sourceName: string;
  /** The normalised model-facing name: `[a-zA-Z0-9_-]`, at most 64 characters. */
  readonly name: string;
  /** The description, or `MCP tool from <toolset>` when the server gave none. */
  readonly description: string;
  readonly inputSchema: Readonly<JsonSchema>;
  readonly outputSchema: Readonly<JsonSchema> | undefined;
  readonly annotations: Readonly<Record<string, unknown>>;
  readonly title: string | undefined;
  /** The definition's `_meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The complete definition object. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * The model-facing name of a server tool name: characters outside
 * `[a-zA-Z0-9_-]` become `_`, and a name over 64 characters keeps 51
 * characters, `_` and 12 hex digits of its SHA-256.
 */
export function mcpToolName(sourceName: string): string {
  return boundedName(sourceName.replace(/[^a-zA-Z0-9_-]/g, '_'));
}

/** Checks one raw `tools/list` entry and builds its definition. */
export function buildDefinition(raw: unknown, toolset: string, limits: McpLimits): McpDefinition {
  if (!isPlainObject(raw)) throw new ProtocolError('MCP tool definition must be an object');
  const sourceName = raw.name;
  if (typeof sourceName !== 'string' || sourceName.length === 0) throw new ProtocolError('MCP tool definition must include a name');
  const inputSchema = objectField(raw, 'inputSchema', 'tool inputSchema') ?? { type: 'object' };
  const outputSchema = objectField(raw, 'outputSchema', 'tool outputSchema');
  checkSchemaPatterns(inputSchema, 'inputSchema', limits);
  checkSchemaReferences(inputSchema, 'inputSchema');
  if (outputSchema) {
    checkSchemaPatterns(outputSchema, 'outputSchema', limits);
    checkSchemaReferences(outputSchema, 'outputSchema');
  }
  const description = typeof raw.description === 'string' && raw.description.length > 0 ? raw.description : `MCP tool from ${toolset}`;
  return deepFreeze({
    sourceName,
    name: mcpToolName(sourceName),
    description,
    inputSchema: structuredClone(inputSchema) as JsonSchema,
    outputSchema: outputSchema === undefined ? undefined : (structuredClone(outputSchema) as JsonSchema),
    annotations: structuredClone(objectField(raw, 'annotations', 'tool annotations') ?? {}),
    title: typeof raw.title === 'string' ? raw.title : undefined,
    meta: structuredClone(objectField(raw, '_meta', 'tool _meta') ?? {}),
    raw: structuredClone(raw),
  });
}

/** A field that must be an object when present. */
export function objectField(source: Record<string, unknown>, key: string, what: string): Record<string, unknown> | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw new ProtocolError(`MCP ${what} must be an object`);
  return value;
}

