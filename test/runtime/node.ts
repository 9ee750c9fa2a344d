
/**
 * What the contract suite needs from the runtime it runs in. The vitest
 * project for node aliases `#test-runtime` to this file; the suite itself
 * never branches on the runtime.
 */
export const testRuntime = {
  name: 'node' as const,
};
