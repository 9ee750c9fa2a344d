// `npm run build`: the package as users install it, in dist/.
//
// tsc (7, the native compiler) emits one ESM file and one declaration file per source file, rewriting the
// sources' `.ts` import specifiers to `.js`; per-file output keeps the module graph, so a user's bundler drops
// whatever the program does not import. Then the Workers build of QuickJS gets its own copy of the wasm,
// imported as `./quickjs.wasm` so that wrangler's default `**/*.wasm` rule loads it with no configuration; the
// TypeScript parser code mode uses is sucrase's, bundled without the plugins it never enables.
// Finally every emitted import is checked: relative specifiers must name a file that exists.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distOf, entries, privateImports } from './entries.mjs';
import { bundleSucraseParser } from './sucrase-parser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) fail(`tsc reported errors (see above)${compiled.error ? `: ${compiled.error.message}` : ''}`);

// The Workers build of QuickJS imports the wasm the published package ships.
const workerdVariant = join(root, distOf(privateImports['#quickjs-variant'].workerd));
const wasmSpecifier = '@jitl/quickjs-wasmfile-release-sync/wasm';
const variantSource = readFileSync(workerdVariant, 'utf8');
if (!variantSource.includes(`'${wasmSpecifier}'`)) fail(`${workerdVariant} no longer imports ${wasmSpecifier}`);
writeFileSync(workerdVariant, variantSource.replace(`'${wasmSpecifier}'`, "'./quickjs.wasm'"));
const require = createRequire(import.meta.url);
const wasm = join(dirname(require.resolve('@jitl/quickjs-wasmfile-release-sync/package.json')), 'dist', 'emscripten-module.wasm');
copyFileSync(wasm, join(dirname(workerdVariant), 'quickjs.wasm'));

// Worker scripts are started with `new Worker(new URL('./x.ts', import.meta.url))` (Node and bundlers follow
// that pattern); the emitted file is `./x.js`.
for (const starter of ['adapter/node/worker-thread-code-engine.js', 'adapter/browser/web-worker-code-engine.js']) {
  const file = join(dist, starter);
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(/new URL\('(\.\/[^']+)\.ts', import\.meta\.url\)/g, (_, name) => {
    if (!existsSync(join(dirname(file), `${name}.js`))) fail(`${starter}: the worker script ${name}.js was not emitted`);
    return `new URL('${name}.js', import.meta.url)`;
  });
  if (rewritten === text) fail(`${starter} no longer starts a worker with new URL('./….ts', import.meta.url)`);
  writeFileSync(file, rewritten);
}

// sucrase's parser, bundled into the package without its Flow and JSX plugins (scripts/sucrase-parser.mjs).
writeFileSync(join(dist, 'code-mode', 'sucrase-loader.js'), await bundleSucraseParser());

// Every public entry and private import target exists, with its declarations.
for (const source of [...Object.values(entries), ...Object.values(privateImports).flatMap((conditions) => Object.values(conditions))]) {
  const built = join(root, distOf(source));
  if (!existsSync(built)) fail(`missing ${built}`);
  if (!existsSync(built.replace(/\.js$/, '.d.ts'))) fail(`missing declarations for ${built}`);
}

// No emitted relative import may be extensionless or point at nothing (Node's ESM loader needs full paths).
let files = 0;
for (const file of walk(dist)) {
  if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
  files++;
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const specifier = match[1];
    const target = resolve(dirname(file), file.endsWith('.d.ts') ? specifier.replace(/\.(js|ts)$/, '.d.ts') : specifier);
    if (!/\.(js|ts|wasm)$/.test(specifier) || !existsSync(target)) fail(`${file}: bad import ${specifier}`);
  }
}
console.log(`ghostlight: built ${files} files into dist/ (${Object.keys(entries).length} entries)`);

function* walk(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

function fail(message) {
  console.error(`build failed: ${message}`);
  process.exit(1);
}
