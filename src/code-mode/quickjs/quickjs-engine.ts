import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { ConfigurationError } from '../../error/configuration-error.ts';
import type { CodeEngine, CodeEngineProgram, CodeEngineRequest } from '../code-engine.ts';
import { QuickJsProgram } from './quickjs-program.ts';

/** Options of {@link createQuickJsEngine}. */
export interface QuickJsEngineOptions {
  /**
   * The QuickJS sync variant (`@jitl/quickjs-wasmfile-release-sync`, optionally customised with `newVariant`
   * to hand it a compiled `wasmModule`), or a function that imports it when first needed.
   */
  variant: QuickJSSyncVariant | (() => Promise<QuickJSSyncVariant>);
  /** The clock of the CPU budget (default `performance.now`). Tests freeze it to exercise the interrupt count. */
  clock?: () => number;
}

/**
 * A code engine running each program in its own QuickJS runtime. The
 * WebAssembly module is loaded lazily, once per engine (keep one engine per
 * isolate), and replaced by a fresh one if a program ever leaves it in a state
 * it cannot be disposed from (STACK.md G12).
 *
 * @example
 * import variant from '@jitl/quickjs-wasmfile-release-sync';
 * const engine = createQuickJsEngine({ variant });
 */
export function createQuickJsEngine(options: QuickJsEngineOptions): CodeEngine {
  const clock = options.clock ?? (() => performance.now());
  let module: Promise<QuickJSWASMModule> | undefined;
  const load = (): Promise<QuickJSWASMModule> => {
    module ??= (async () => {
      const variant = typeof options.variant === 'function' ? await options.variant() : options.variant;
      return newQuickJSWASMModuleFromVariant(variant);
    })().catch((error: unknown) => {
      module = undefined;
      throw new ConfigurationError(
        `QuickJS could not load its WebAssembly module (${(error as Error)?.message ?? String(error)}); on Cloudflare Workers import ghostlight/code-mode through the package (its workerd condition loads the wasm as a module), or pass a variant built with newVariant(variant, { wasmModule })`,
        { cause: error },
      );
    });
    return module;
  };
  return Object.freeze({
    version: 'code-engine-v1' as const,
    async ready(): Promise<void> {
      await load();
    },
    async start(request: CodeEngineRequest): Promise<CodeEngineProgram> {
      const current = load();
      const loaded = await current;
      return new QuickJsProgram(loaded, request, clock, () => {
        if (module === current) module = undefined;
      });
    },
  });
}
