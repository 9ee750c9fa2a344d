export { resolveSchema } from './resolve-schema';
export type { ResolvedSchema, SchemaCheck, SchemaInput } from './resolve-schema';
export { validateJson, jsonEqual } from './validate-json';
export { validateJsonSchema } from './validate-json-schema';
export type { JsonSchema, JsonSchemaType } from './json-schema';
