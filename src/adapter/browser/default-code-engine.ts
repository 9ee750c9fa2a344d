import type { CodeEngine } from '../../code-mode/code-engine.ts';
import { createWebWorkerCodeEngine } from './web-worker-code-engine.ts';

/** The `browser` build of code mode's private `#code-engine` import: QuickJS in Web Workers the page can terminate. */
export function createDefaultCodeEngine(): CodeEngine {
  return createWebWorkerCodeEngine();
}
