// The demo Worker plus the QuickJS loader and its wasm module, to measure the bundle with code mode's engine.
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-wasmfile-release-sync';
// @ts-ignore -- wrangler's CompiledWasm rule turns this extensionless wasm export into a WebAssembly.Module.
import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
import worker from '../../worker/index';

export { SessionDurableObject } from '../../worker/index';

let quickjs: ReturnType<typeof newQuickJSWASMModuleFromVariant> | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, context?: unknown) {
    if (new URL(request.url).pathname === '/quickjs') {
      quickjs ??= newQuickJSWASMModuleFromVariant(newVariant(baseVariant, { wasmModule }));
      return quickjs.then((module) => new Response(String(module.evalCode('1 + 1'))));
    }
    return worker.fetch(request, env, context);
  },
};
