export { AsyncScope, UseAfterDisposeError } from './async-scope.ts';
export type { Cleanup } from './async-scope.ts';
