import variant from '@jitl/quickjs-wasmfile-release-sync';
import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
import { newVariant } from 'quickjs-emscripten-core';
import type { QuickJSSyncVariant } from 'quickjs-emscripten-core';

/**
 * The QuickJS build on Cloudflare Workers (the `workerd` condition of the
 * package's `#quickjs-variant` import): Workers cannot compile WebAssembly at
 * run time, so the `.wasm` comes in as a module import, which wrangler turns
 * into a compiled `WebAssembly.Module`. The published package imports its own
 * copy, `./quickjs.wasm`, which wrangler's default `**\/*.wasm` rule matches;
 * inside this repository wrangler.toml's rule matches the package's export.
 */
export async function loadQuickJsVariant(): Promise<QuickJSSyncVariant> {
  return newVariant(variant, { wasmModule });
}
