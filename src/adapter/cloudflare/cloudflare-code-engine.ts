import variant from '@jitl/quickjs-wasmfile-release-sync';
import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
import { newVariant } from 'quickjs-emscripten-core';
import type { CodeEngine } from '../../codemode/code-engine';
import { createQuickJsEngine } from '../../codemode/quickjs/quickjs-engine';

let engine: CodeEngine | undefined;

/**
 * The QuickJS code engine for Cloudflare Workers: Workers cannot compile
 * WebAssembly at run time, so the QuickJS `.wasm` comes in as a module import
 * (wrangler's `CompiledWasm` rule must match `quickjs-wasmfile-release-sync/wasm`,
 * see wrangler.toml). One engine per isolate, loaded on first use.
 *
 * @example
 * import { cloudflareCodeEngine } from 'ghostlight/cloudflare/code-mode';
 * defineAgent({ name: 'analyst', model, tools, codeMode: { engine: cloudflareCodeEngine() } });
 */
export function cloudflareCodeEngine(): CodeEngine {
  engine ??= createQuickJsEngine({ variant: newVariant(variant, { wasmModule }) });
  return engine;
}
