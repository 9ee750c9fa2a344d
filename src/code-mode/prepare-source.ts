/** Whether a program is a script body or an ES module (the `code.run` style `export async function run({ input, tools })`). */
export function sourceKind(source: string): 'script' | 'module' {
  return /^\s*export\s/m.test(source) ? 'module' : 'script';
}

type Transform = (code: string, options: { transforms: string[]; disableESTransforms: boolean; keepUnusedImports: boolean }) => { code: string };

let transform: Promise<Transform> | undefined;

/**
 * Removes TypeScript syntax with sucrase (a small pure-JavaScript transpiler:
 * no `eval`, no WebAssembly, so it runs on Workers and in browsers; imported
 * on first use, and only for programs that do not parse as JavaScript).
 * Returns `undefined` when sucrase cannot parse the source either, or changes
 * nothing, so the caller reports QuickJS's own syntax error.
 */
export async function stripTypes(source: string): Promise<string | undefined> {
  transform ??= import('sucrase').then((module) => module.transform as Transform);
  try {
    const { code } = (await transform)(source, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true });
    return code === source ? undefined : code;
  } catch {
    return undefined;
  }
}
