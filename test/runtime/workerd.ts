import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { DurableObjectSessionStore, DurableObjectWorkspaceStore } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
import { newVariant } from 'quickjs-emscripten-core';
import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';

/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for workerd aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'workerd' as const,
  /**
   * Whether the default code engine can terminate a program the host's thread never runs: not on Workers,
   * where programs run on the request's thread and the builtin bounds and the CPU budget stop them.
   */
  preemptiveCodeEngine: false,
  /** The QuickJS variant, for tests that build their own engine on this thread (the wasm as a module). */
  quickJsVariant: async (): Promise<QuickJSSyncVariant> => newVariant(variant, { wasmModule }),
  /** workerd exposes no heap measurement to the isolate. */
  hostMemoryBytes: async (): Promise<number | undefined> => undefined,
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
