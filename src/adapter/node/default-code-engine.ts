import type { CodeEngine } from '../../code-mode/code-engine.ts';
import { createWorkerThreadCodeEngine } from './worker-thread-code-engine.ts';

/** The `node` build of code mode's private `#code-engine` import: QuickJS in worker threads the host can terminate. */
export function createDefaultCodeEngine(): CodeEngine {
  return createWorkerThreadCodeEngine();
}
