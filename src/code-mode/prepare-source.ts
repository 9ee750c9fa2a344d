
/** Whether a program is a script body or an ES module (the `code.run` style `export async function run({ input, tools })`). */
export function sourceKind(source: string): 'script' | 'module' {
  return /^\s*export\s/m.test(source) ? 'module' : 'script';
}

let eraser: Promise<(source: string) => string> | undefined;

/**
 * Removes TypeScript syntax with a type eraser on sucrase's parser (pure JavaScript: no `eval`, no WebAssembly,
 * so it runs on Workers and in browsers; imported on first use, and only for programs that do not parse as
 * JavaScript). Line breaks stay where they were, so QuickJS's line numbers point into the program as written.
 * Returns `undefined` when the source does not parse as TypeScript either, or nothing changes, so the caller
 * reports QuickJS's own syntax error.
 */
export async function stripTypes(source: string): Promise<string | undefined> {
  eraser ??= Promise.all([import('./strip-types.ts'), import('./sucrase-loader.ts').then(({ loadSucraseParse }) => loadSucraseParse())]).then(
    ([{ eraseTypes }, parse]) =>
      (code: string) =>
        eraseTypes(code, parse),
  );
  try {
    const code = (await eraser)(source);
    return code === source ? undefined : code;
  } catch {
    return undefined;
  }
}
