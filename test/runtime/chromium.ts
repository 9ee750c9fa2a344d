import { IndexedDbSessionStore, IndexedDbWorkspaceStore } from 'ghostlight/browser';

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for chromium aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'chromium' as const,
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
