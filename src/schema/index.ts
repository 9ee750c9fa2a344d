export { resolveSchema } from './resolve-schema.ts';
export type { ResolvedSchema, SchemaCheck, SchemaInput } from './resolve-schema.ts';
export { validateJson } from './validate-json.ts';
export { validateJsonSchema } from './validate-json-schema.ts';
export type { JsonSchema, JsonSchemaType } from './json-schema.ts';
