/** The QuickJS WebAssembly, imported as a compiled module through wrangler's CompiledWasm rule (STACK.md G7). */
declare module '@jitl/quickjs-wasmfile-release-sync/wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}
