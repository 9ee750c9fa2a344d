// The package's public entries, in one place: the build (scripts/build.mjs), the in-repo aliases
// (vitest.config.ts, wrangler.toml, tsconfig.json) and package.json's "exports" all follow this list,
// and test/node/package-entries.test.ts fails when one of them drifts.

/** Each public subpath and the source file it is built from. */
export const entries = {
  '.': 'src/index.ts',
  './workspace': 'src/workspace/index.ts',
  './sandbox': 'src/sandbox/index.ts',
  './filesystem-tools': 'src/filesystem-tools/index.ts',
  './shell': 'src/shell/index.ts',
  './code-mode': 'src/code-mode/index.ts',
  './skills': 'src/skills/index.ts',
  './artifacts': 'src/artifacts/index.ts',
  './mcp': 'src/mcp/index.ts',
  './subagents': 'src/subagents/index.ts',
  './assemblies': 'src/assemblies/index.ts',
  './http': 'src/http/index.ts',
  './ag-ui': 'src/ag-ui/index.ts',
  './ui-stream': 'src/ui-stream/index.ts',
  './demo-model': 'src/demo-model/index.ts',
  './opentelemetry': 'src/opentelemetry/index.ts',
  './context': 'src/context/index.ts',
  './prompts': 'src/prompts/index.ts',
  './todos': 'src/todos/index.ts',
  './workflows': 'src/workflows/index.ts',
  './cloudflare': 'src/adapter/cloudflare/index.ts',
  './browser': 'src/adapter/browser/index.ts',
  './node': 'src/adapter/node/index.ts',
};

/**
 * The package's private imports ("imports" in package.json): runtime-specific builds chosen by condition, in
 * the order package.json lists them (`workerd` before `browser`: wrangler sets both).
 */
export const privateImports = {
  '#quickjs-variant': {
    workerd: 'src/code-mode/quickjs/quickjs-variant.workerd.ts',
    default: 'src/code-mode/quickjs/quickjs-variant.ts',
  },
  // The default code engine: worker threads in Node, Web Workers in browsers, QuickJS on the thread elsewhere.
  '#code-engine': {
    workerd: 'src/code-mode/quickjs/in-thread-code-engine.ts',
    node: 'src/adapter/node/default-code-engine.ts',
    browser: 'src/adapter/browser/default-code-engine.ts',
    default: 'src/code-mode/quickjs/in-thread-code-engine.ts',
  },
};

/** The specifier users import for a subpath: `ghostlight`, `ghostlight/code-mode`, … */
export const specifierOf = (subpath) => (subpath === '.' ? 'ghostlight' : `ghostlight${subpath.slice(1)}`);

/** The built file of a source file: `src/a/b.ts` → `dist/a/b.js`. */
export const distOf = (source) => source.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');

/**
 * Aliases that make in-repo code (tests, worker/, web/, bench/, examples/) import the sources the way users
 * import the package. `runtime` picks the conditional private imports (`workerd`, `node`, `browser` or `default`).
 */
export function sourceAliases(root, runtime = 'default') {
  const aliases = [];
  for (const [subpath, source] of Object.entries(entries)) aliases.push([specifierOf(subpath), `${root}/${source}`]);
  for (const [name, conditions] of Object.entries(privateImports)) aliases.push([name, `${root}/${conditions[runtime] ?? conditions.default}`]);
  // Longest first: a prefix alias (`ghostlight`) must not capture a subpath (`ghostlight/code-mode`).
  return Object.fromEntries(aliases.sort(([left], [right]) => right.length - left.length));
}
