import type { RunExecution } from './run-execution.ts';

/** The execution behind each `RunStream`, for the functions that act on a running run (`interject`). */
export const runExecutions = new WeakMap<object, RunExecution>();
