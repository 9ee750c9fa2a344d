import type { CodeEngine } from '../../code-mode/code-engine.ts';
import { createRemoteCodeEngine } from '../../code-mode/remote/remote-code-engine.ts';
import type { WorkerMessage } from '../../code-mode/remote/remote-protocol.ts';

/** Options of {@link createWebWorkerCodeEngine}. */
export interface WebWorkerCodeEngineOptions {
  /** Idle Web Workers kept loaded for the next program (default 1). */
  idleWorkers?: number | undefined;
}

/**
 * Code mode's engine in browsers (what `defaultCodeEngine()` returns there):
 * QuickJS runs in module Web Workers, one per running program, and the page
 * terminates a worker whose step outlives the program's CPU budget, so no
 * program can freeze the tab, whatever builtin it calls. The worker script is
 * started with `new Worker(new URL('./code-engine-web-worker.js',
 * import.meta.url), { type: 'module' })`, which Vite (and other bundlers
 * that follow that pattern) emit as a worker chunk with its QuickJS wasm.
 *
 * @example
 * import { createWebWorkerCodeEngine } from 'ghostlight/browser';
 * import { codeMode } from 'ghostlight/code-mode';
 * const capability = codeMode({ engine: createWebWorkerCodeEngine() });
 */
export function createWebWorkerCodeEngine(options: WebWorkerCodeEngineOptions = {}): CodeEngine {
  return createRemoteCodeEngine({
    label: 'the code-mode Web Worker',
    idleWorkers: options.idleWorkers,
    spawn: () => {
      // The build rewrites this URL to the emitted `.js` file beside this one; bundlers see the pattern.
      const worker = new Worker(new URL('./code-engine-web-worker.ts', import.meta.url), { type: 'module', name: 'ghostlight-code-engine' });
      let failed: ((error: unknown) => void) | undefined;
      let ended = false;
      const fail = (error: unknown) => {
        if (ended) return;
        ended = true;
        failed?.(error);
      };
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        fail(new Error(event.message || 'the code-mode Web Worker failed to load or crashed'));
      });
      worker.addEventListener('messageerror', () => fail(new Error('the code-mode Web Worker sent a message that cannot be read')));
      return {
        post: (message) => worker.postMessage(message),
        onMessage: (listener) => worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => listener(event.data)),
        onFailure: (listener) => {
          failed = listener;
        },
        terminate: () => {
          ended = true;
          worker.terminate();
        },
      };
    },
  });
}
