import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for node aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'node' as const,
  /** Whether the default code engine can terminate a program the host's thread never runs (worker threads here). */
  preemptiveCodeEngine: true,
  /** The QuickJS variant, for tests that build their own engine on this thread. */
  quickJsVariant: async (): Promise<QuickJSSyncVariant> => (await import('@jitl/quickjs-wasmfile-release-sync')).default,
  /** The host heap in use after a full collection (V8 heap plus memory outside it, such as wasm and buffers). */
  hostMemoryBytes: async (): Promise<number | undefined> => {
    collect();
    collect();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  },
};
