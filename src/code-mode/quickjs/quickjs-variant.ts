import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';

/**
 * The QuickJS build code mode runs on, imported on first use. In Node and in
 * browsers the variant loads its WebAssembly by itself (bundlers such as Vite
 * emit the `.wasm` as an asset). Workers, which cannot compile WebAssembly at
 * run time, get `quickjs-variant.workerd.ts` instead through the package's
 * `#quickjs-variant` import and its `workerd` condition.
 */
export async function loadQuickJsVariant(): Promise<QuickJSSyncVariant> {
  return (await import('@jitl/quickjs-wasmfile-release-sync')).default;
}
