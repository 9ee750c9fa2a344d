import { IndexedDbSessionStore, IndexedDbWorkspaceStore } from 'ghostlight/browser';
import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';

/** Chromium runs with `--js-flags=--expose-gc --enable-precise-memory-info` (vitest.config.ts). */
const page = globalThis as unknown as { gc?: () => void; performance: { memory?: { usedJSHeapSize: number } } };

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for chromium aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'chromium' as const,
  /** Whether the default code engine can terminate a program the host's thread never runs (Web Workers here). */
  preemptiveCodeEngine: true,
  /** The QuickJS variant, for tests that build their own engine on this thread. */
  quickJsVariant: async (): Promise<QuickJSSyncVariant> => (await import('@jitl/quickjs-wasmfile-release-sync')).default,
  /** The page's JavaScript heap in use after a full collection. */
  hostMemoryBytes: async (): Promise<number | undefined> => {
    if (!page.gc || !page.performance.memory) return undefined;
    page.gc();
    page.gc();
    return page.performance.memory.usedJSHeapSize;
  },
  /** Workspace stores only this runtime has: IndexedDB, a fresh database per test. */
  workspaceStores: {
    indexeddb: async <T>(test: (open: (name: string) => IndexedDbWorkspaceStore) => Promise<T>) => {
      const database = `ghostlight-workspace-test-${crypto.randomUUID()}`;
      const opened: IndexedDbWorkspaceStore[] = [];
      try {
        return await test((name) => {
          const store = new IndexedDbWorkspaceStore({ name, database });
          opened.push(store);
          return store;
        });
      } finally {
        await Promise.all(opened.map((store) => store.close()));
        indexedDB.deleteDatabase(database);
      }
    },
  },
  /** Session stores only this runtime has (the memory store runs everywhere). */
  sessionStores: {
    indexeddb: () => new IndexedDbSessionStore({ name: `ghostlight-test-${crypto.randomUUID()}` }),
  },
};
