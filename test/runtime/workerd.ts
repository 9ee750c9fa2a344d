import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { DurableObjectSessionStore, DurableObjectWorkspaceStore } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for workerd aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'workerd' as const,
  /** Session stores only this runtime has (the memory store runs everywhere). */
  sessionStores: {
    'durable-object': () => new DurableObjectSessionStore((env as unknown as { SESSIONS: DurableObjectNamespaceLike }).SESSIONS),
  },
  /** Workspace stores only this runtime has: Durable Object storage, each test inside its own object. */
  workspaceStores: {
    'durable-object': <T>(test: (open: (name: string) => DurableObjectWorkspaceStore) => Promise<T>) => {
      const namespace = (env as unknown as { WORKSPACES: { idFromName(name: string): unknown; get(id: unknown): unknown } }).WORKSPACES;
      const stub = namespace.get(namespace.idFromName(crypto.randomUUID()));
      return runInDurableObject(stub, (_instance, state) => test((name) => new DurableObjectWorkspaceStore(state.storage, { prefix: `${name}:` })));
    },
  },
};
