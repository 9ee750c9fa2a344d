export { AsyncScope, UseAfterDisposeError } from './async-scope';
export type { Cleanup } from './async-scope';
