import { loadQuickJsVariant } from '#quickjs-variant';
import type { CodeEngine } from '../code-engine.ts';
import { createQuickJsEngine } from './quickjs-engine.ts';

let engine: CodeEngine | undefined;

/**
 * The engine code mode uses when none is given: QuickJS from
 * `@jitl/quickjs-wasmfile-release-sync`, loaded on first use, one per isolate
 * or page. The same call works in Node, in browsers and on Cloudflare
 * Workers: the package's `workerd` condition picks the build that imports the
 * WebAssembly as a module.
 */
export function defaultCodeEngine(): CodeEngine {
  engine ??= createQuickJsEngine({ variant: loadQuickJsVariant });
  return engine;
}
