/**
 * A JSON Schema document (draft 2020-12 vocabulary). Kept deliberately loose:
 * schemas come from valibot, AI SDK tools, MCP servers and applications.
 */
export interface JsonSchema {
  [keyword: string]: unknown;
  type?: JsonSchemaType | JsonSchemaType[] | string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | boolean;
  enum?: unknown[];
  description?: string;
}

/** The primitive type names of JSON Schema. */
export type JsonSchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
