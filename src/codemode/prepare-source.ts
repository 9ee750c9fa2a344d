/** A program ready for an engine. */
export interface PreparedSource {
  /** JavaScript, TypeScript types removed. */
  readonly code: string;
  /** `module` when the program exports (the `code.run` style `export async function run({ input, tools })`). */
  readonly kind: 'script' | 'module';
}

type Transform = (code: string, options: { transforms: string[]; disableESTransforms: boolean; keepUnusedImports: boolean }) => { code: string };

let transform: Promise<Transform> | undefined;

/**
 * Removes TypeScript syntax with sucrase (a small pure-JavaScript transpiler:
 * no `eval`, no WebAssembly, so it runs on Workers and in browsers; imported
 * on first use) and tells scripts from modules. Source sucrase cannot parse is
 * handed on unchanged so QuickJS reports its own syntax error.
 */
export async function prepareSource(source: string): Promise<PreparedSource> {
  const kind = /^\s*export\s/m.test(source) ? 'module' : 'script';
  transform ??= import('sucrase').then((module) => module.transform as Transform);
  try {
    const { code } = (await transform)(source, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true });
    return { code, kind };
  } catch {
    return { code: source, kind };
  }
}
