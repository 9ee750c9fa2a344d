// sucrase's parser as the built package ships it (dist/code-mode/sucrase-loader.js, in place of the source module
// src/code-mode/sucrase-loader.ts): one ES module, bundled by esbuild without sucrase's Flow and JSX plugins and
// without the token names of its error messages.
// Code mode's type eraser calls parse(code, false, true, false), which never reaches them; stubs that throw stand
// in for their functions. About 2.8 KiB gzip less in every Worker, and no run-time dependency on sucrase.
// src/code-mode/strip-types.test.ts runs its corpus through this bundle as well as through sucrase itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const STUBBED = /sucrase[\\/]dist[\\/]esm[\\/]parser[\\/]plugins[\\/](flow|jsx[\\/]index)\.js$/;
const TOKEN_TYPES = /sucrase[\\/]dist[\\/]esm[\\/]parser[\\/]tokenizer[\\/]types\.js$/;

/** The module's text: `export async function loadSucraseParse()`, as the source module exports. */
export async function bundleSucraseParser() {
  const license = readFileSync(join(dirname(require.resolve('sucrase/package.json')), 'LICENSE'), 'utf8').trim();
  const version = JSON.parse(readFileSync(require.resolve('sucrase/package.json'), 'utf8')).version;
  const bundled = await build({
    stdin: {
      contents: "import { parse } from 'sucrase/dist/esm/parser/index.js';\nexport async function loadSucraseParse() { return parse; }\n",
      resolveDir: root,
      sourcefile: 'sucrase-loader.js',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    legalComments: 'none',
    banner: { js: `// sucrase ${version}'s parser (https://github.com/alangpierce/sucrase), bundled by scripts/sucrase-parser.mjs\n// without its Flow and JSX plugins.\n/*\n${license}\n*/` },
    plugins: [
      {
        name: 'without-flow-and-jsx',
        setup(esbuild) {
          // Token names serve only the text of parse errors, which the eraser never shows: "token" stands in.
          esbuild.onLoad({ filter: TOKEN_TYPES }, (args) => {
            const source = readFileSync(args.path, 'utf8');
            const start = source.indexOf('export function formatTokenType(');
            if (start < 0) throw new Error('sucrase: formatTokenType not found in tokenizer/types.js');
            return { contents: `${source.slice(0, start)}export function formatTokenType() { return "token"; }\n`, loader: 'js' };
          });
          esbuild.onLoad({ filter: STUBBED }, (args) => {
            const names = [...readFileSync(args.path, 'utf8').matchAll(/^export function (\w+)/gm)].map((match) => match[1]);
            return { contents: names.map((name) => `export function ${name}() { throw new Error('sucrase: ${name} is not bundled'); }`).join('\n'), loader: 'js' };
          });
        },
      },
    ],
  });
  return bundled.outputFiles[0].text;
}
