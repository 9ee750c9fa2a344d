import { createDefaultCodeEngine } from '#code-engine';
import type { CodeEngine } from '../code-engine.ts';

let engine: CodeEngine | undefined;

/**
 * The engine code mode uses when none is given, one per isolate or page,
 * chosen by the package's private `#code-engine` import: in Node, QuickJS in
 * worker threads (`createWorkerThreadCodeEngine` from `ghostlight/node`); in
 * browsers, QuickJS in Web Workers (`createWebWorkerCodeEngine` from
 * `ghostlight/browser`); on Cloudflare Workers (the `workerd` condition) and
 * elsewhere, QuickJS on the caller's thread (`createQuickJsEngine`), with
 * the build that imports the WebAssembly as a module on Workers. The
 * WebAssembly module is loaded on first use.
 */
export function defaultCodeEngine(): CodeEngine {
  engine ??= createDefaultCodeEngine();
  return engine;
}
