export { RESULT_SCHEMA_KEYWORDS } from './check-result-schema';
export { MAX_RESULT_BYTES, MAX_RESULT_DEPTH, MAX_RESULT_NODES } from './result-limits';
export { defineResultSchema } from './result-schema';
export type { ResultDeclaration, ResultOptions, ResultSchema, ResultStrategy } from './result-schema';
export { StructuredResultError } from './structured-result-error';
export { generateResult } from './generate-result';
export type { GenerateResultOptions, GeneratedResult } from './generate-result';
