import type { SucraseParse } from './sucrase-tokens.ts';

// Node's own loader refuses the ES module build's extensionless imports; there the CommonJS build serves. The
// specifier is not a literal, so bundlers leave it alone (they take the ES module build and never need it).
const SUCRASE_PARSER_COMMONJS = 'sucrase/dist/parser/index.js';

/**
 * sucrase's parser (`parse(code, jsx, typescript, flow)`), imported on first use. In the built package this
 * module is replaced by sucrase's parser bundled without its Flow and JSX plugins, which code mode never enables
 * (scripts/sucrase-parser.mjs; about 2.8 KiB gzip less in a Worker), so the package does not depend on sucrase at run time.
 */
export async function loadSucraseParse(): Promise<SucraseParse> {
  const parser = (await import('sucrase/dist/esm/parser/index.js').catch(() => import(/* @vite-ignore */ SUCRASE_PARSER_COMMONJS))) as { parse: SucraseParse };
  return parser.parse;
}
