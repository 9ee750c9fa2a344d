import type { CodeEngine } from '../code-engine';
import { createQuickJsEngine } from './quickjs-engine';

let engine: CodeEngine | undefined;

/**
 * The engine used when none is given: QuickJS from
 * `@jitl/quickjs-wasmfile-release-sync`, imported on first use. It loads its
 * WebAssembly by itself in Node and in browsers (bundlers such as Vite emit
 * the `.wasm` as an asset); on Cloudflare Workers, where WebAssembly cannot
 * be compiled at run time, use `cloudflareCodeEngine()` from
 * `ghostlight/cloudflare/code-mode` instead.
 */
export function defaultCodeEngine(): CodeEngine {
  engine ??= createQuickJsEngine({
    variant: async () => (await import('@jitl/quickjs-wasmfile-release-sync')).default,
  });
  return engine;
}
