import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distOf, entries, privateImports, sourceAliases, specifierOf } from '../../scripts/entries.mjs';
import { checkLayers } from '../../scripts/check-layers.mjs';
import { projectRoot } from '../support/realworld';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

describe('the package entries (scripts/entries.mjs) are the same everywhere', () => {
  it('package.json exports each entry as { types, default } from dist/, and the private imports by condition', () => {
    const manifest = JSON.parse(read('package.json')) as { exports: Record<string, unknown>; imports: Record<string, unknown> };
    const expected: Record<string, unknown> = {};
    for (const [subpath, source] of Object.entries(entries)) expected[subpath] = { types: `./${distOf(source).replace(/\.js$/, '.d.ts')}`, default: `./${distOf(source)}` };
    expected['./package.json'] = './package.json';
    expect(manifest.exports).toEqual(expected);
    for (const [name, conditions] of Object.entries(privateImports)) {
      const expectedImport: Record<string, string> = { types: `./${distOf(conditions.default!).replace(/\.js$/, '.d.ts')}` };
      for (const [condition, source] of Object.entries(conditions)) expectedImport[condition] = `./${distOf(source!)}`;
      expect(manifest.imports[name]).toEqual(expectedImport);
      // Condition order matters: the first that matches wins, so `default` comes last.
      expect(Object.keys(manifest.imports[name] as object)).toEqual(Object.keys(expectedImport));
    }
  });

  it("wrangler.toml's [alias] maps every entry to its source, with the workerd build of the private imports", () => {
    const toml = read('wrangler.toml');
    const table = toml.slice(toml.indexOf('[alias]'), toml.indexOf('\n[', toml.indexOf('[alias]') + 1));
    const aliases = Object.fromEntries([...table.matchAll(/^"([^"]+)" = "\.\/([^"]+)"$/gm)].map((match) => [match[1], match[2]]));
    const expected = Object.fromEntries(Object.entries(sourceAliases('.', 'workerd')).map(([specifier, path]) => [specifier, path.replace(/^\.\//, '')]));
    expect(aliases).toEqual(expected);
  });

  it('tsconfig.json resolves every entry to its source', () => {
    const paths = (JSON.parse(read('tsconfig.json')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    for (const [subpath, source] of Object.entries(entries)) {
      const specifier = specifierOf(subpath);
      const mapped = paths[specifier]?.[0] ?? paths['ghostlight/*']![0]!.replace('*', specifier.slice('ghostlight/'.length));
      expect(mapped, specifier).toBe(`./${source}`);
    }
  });

  it('imports in src/ follow the layer table of docs/architecture.md', () => {
    expect(checkLayers()).toEqual([]);
  });
});
