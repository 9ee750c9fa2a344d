export { RESULT_SCHEMA_KEYWORDS } from './check-result-schema.ts';
export { MAX_RESULT_BYTES, MAX_RESULT_DEPTH, MAX_RESULT_NODES } from './result-limits.ts';
export { defineResultSchema } from './result-schema.ts';
export type { ResultDeclaration, ResultOptions, ResultSchema, ResultStrategy } from './result-schema.ts';
export { StructuredResultError } from './structured-result-error.ts';
export { generateResult } from './generate-result.ts';
export type { GenerateResultOptions, GeneratedResult } from './generate-result.ts';
