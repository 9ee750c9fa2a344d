import { defaultCodeEngine } from '../../src/codemode/quickjs/default-code-engine';
import { IndexedDbSessionStore } from '../../src/adapter/browser/index';

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for chromium aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'chromium' as const,
  /** The code-mode engine for this runtime (the plain variant; Vite serves its wasm as an asset). */
  codeEngine: defaultCodeEngine,
  /** Session stores only this runtime has (the memory store runs everywhere). */
  sessionStores: {
    indexeddb: () => new IndexedDbSessionStore({ name: `ghostlight-test-${crypto.randomUUID()}` }),
  },
};
