import { testRuntime } from '#test-runtime';
import { describe } from 'vitest';
import { MemoryWorkspaceStore } from 'ghostlight/workspace';
import { workspaceStoreContract } from '../support/workspace-store-contract';
import type { WorkspaceStoreBackend } from '../support/workspace-store-contract';

const memory: WorkspaceStoreBackend = (test) => {
  const stores = new Map<string, MemoryWorkspaceStore>();
  return test((name) => {
    if (!stores.has(name)) stores.set(name, new MemoryWorkspaceStore());
    return stores.get(name)!;
  });
};

const backends: Record<string, WorkspaceStoreBackend> = {
  memory,
  ...((testRuntime as { workspaceStores?: Record<string, WorkspaceStoreBackend> }).workspaceStores ?? {}),
};

for (const [name, backend] of Object.entries(backends)) {
  describe(`the ${name} workspace store`, () => workspaceStoreContract(backend));
}
