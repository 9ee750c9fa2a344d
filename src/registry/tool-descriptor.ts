import type { JsonSchema } from '../schema/json-schema.ts';
import type { Tool } from '../tool/tool.ts';
import { canonicalJson } from '../util/json.ts';
import { sha256Hex } from '../util/sha256.ts';

/**
 * The schema surface of a tool that a capability snapshot locks: its id (or
 * name), description, and input and output JSON Schema. Never the
 * implementation: changing only `execute` leaves the descriptor unchanged.
 */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | null;
}

/**
 * The descriptor of `tool`. The top-level `$schema` dialect marker is left out
 * so that declaring the same schema with or without it hashes the same.
 */
export function toolDescriptor(tool: Tool): ToolDescriptor {
  return {
    name: tool.id ?? tool.name,
    description: tool.description,
    inputSchema: withoutDialect(tool.input.jsonSchema),
    outputSchema: tool.output ? withoutDialect(tool.output.jsonSchema) : null,
  };
}

/** Canonical JSON of the descriptor (sorted keys): equal descriptors give equal text. */
export function descriptorText(tool: Tool): string {
  return canonicalJson(toolDescriptor(tool));
}

const hashes = new WeakMap<Tool, Promise<string>>();

/**
 * `sha256:<hex>` of the canonical JSON descriptor, with Web Crypto. Tools are
 * frozen, so the hash is computed once per tool object.
 *
 * @example
 * await descriptorHash(lookup); // 'sha256:5f1c…'
 */
export function descriptorHash(tool: Tool): Promise<string> {
  let hash = hashes.get(tool);
  if (!hash) {
    hash = sha256Hex(descriptorText(tool)).then((hex) => `sha256:${hex}`);
    hashes.set(tool, hash);
  }
  return hash;
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
