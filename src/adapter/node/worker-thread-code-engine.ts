import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';
import type { CodeEngine } from '../../code-mode/code-engine.ts';
import { createRemoteCodeEngine } from '../../code-mode/remote/remote-code-engine.ts';
import type { WorkerMessage } from '../../code-mode/remote/remote-protocol.ts';

/** Options of {@link createWorkerThreadCodeEngine}. */
export interface WorkerThreadCodeEngineOptions {
  /** Idle worker threads kept loaded for the next program (default 1). */
  idleWorkers?: number | undefined;
  /**
   * V8 limits of each worker thread (`worker_threads`' `resourceLimits`): the worker's own heap, which holds
   * what crosses between QuickJS and the host, not the QuickJS heap (`memoryBytes`). A worker past them stops
   * its program with the memory limit.
   */
  resourceLimits?: WorkerThreadResourceLimits | undefined;
}

/** The `worker_threads` resource limits a code-engine worker accepts (megabytes). */
export interface WorkerThreadResourceLimits {
  readonly maxOldGenerationSizeMb?: number;
  readonly maxYoungGenerationSizeMb?: number;
  readonly codeRangeSizeMb?: number;
  readonly stackSizeMb?: number;
}

/**
 * Code mode's engine in Node (what `defaultCodeEngine()` returns there):
 * QuickJS runs in `worker_threads` workers, one per running program, and the
 * host terminates a worker whose step outlives the program's CPU budget, so
 * no program can block Node's event loop, whatever builtin it calls. Idle
 * workers do not keep the process alive.
 *
 * @example
 * import { createWorkerThreadCodeEngine } from 'ghostlight/node';
 * import { codeMode } from 'ghostlight/code-mode';
 * const engine = createWorkerThreadCodeEngine({ idleWorkers: 2 });
 * const capability = codeMode({ engine });
 */
export function createWorkerThreadCodeEngine(options: WorkerThreadCodeEngineOptions = {}): CodeEngine {
  return createRemoteCodeEngine({
    label: 'the code-mode worker thread',
    idleWorkers: options.idleWorkers,
    spawn: () => {
      const { port1, port2 } = new MessageChannel();
      // The build rewrites this URL to the emitted `.js` file beside this one.
      const worker = startWorker(new URL('./code-engine-thread.ts', import.meta.url), {
        workerData: { port: port2 },
        transferList: [port2],
        ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      });
      let failed: ((error: unknown) => void) | undefined;
      let ended = false;
      const fail = (error: unknown) => {
        if (ended) return;
        ended = true;
        failed?.(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the code-mode worker thread exited (code ${code})`)));
      port1.on('messageerror', fail);
      return {
        post: (message) => port1.postMessage(message),
        onMessage: (listener) => port1.on('message', (message: WorkerMessage) => listener(message)),
        onFailure: (listener) => {
          failed = listener;
        },
        terminate: () => {
          ended = true;
          port1.close();
          void worker.terminate();
        },
        takePending: () => receiveMessageOnPort(port1)?.message as WorkerMessage | undefined,
        keepAlive: (alive) => {
          if (alive) {
            worker.ref();
            port1.ref();
          } else {
            worker.unref();
            port1.unref();
          }
        },
      };
    },
  });
}

/**
 * Starts the worker with the process's flags (loaders such as tsx included) but none a worker refuses:
 * `--input-type` (only for `--eval` input), and the V8 and per-process flags (`--expose-gc`, …) Node names
 * when it refuses them.
 */
function startWorker(url: URL, options: WorkerOptions): Worker {
  let execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      return new Worker(url, { ...options, execArgv });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
      const refused = new Set(String((error as Error).message).slice(String((error as Error).message).lastIndexOf(':') + 1).split(',').map((flag) => flag.trim()));
      execArgv = execArgv.filter((flag) => !refused.has(flag) && !refused.has(flag.split('=')[0]!));
    }
  }
  return new Worker(url, { ...options, execArgv: [] });
}
