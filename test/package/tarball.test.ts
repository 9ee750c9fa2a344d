import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { entries, specifierOf } from '../../scripts/entries.mjs';

const consumer = inject('consumerRoot');
const installed = join(consumer, 'node_modules/ghostlight');

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? files(path) : [relative(installed, path)];
  });
}

describe('the packed tarball', () => {
  it('ships the built entries and the docs, not the sources, tests, playground or benchmarks', () => {
    const shipped = files(installed);
    const tops = [...new Set(shipped.map((path) => path.split('/')[0]))].sort();
    expect(tops).toEqual(['README.md', 'dist', 'docs', 'package.json']);
    expect(shipped.filter((path) => path.endsWith('.test.js') || path.endsWith('.test.d.ts'))).toEqual([]);
    expect(shipped).toContain('dist/code-mode/quickjs/quickjs.wasm');
  });

  it('maps every entry to ESM and declarations that exist', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
      peerDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    for (const subpath of Object.keys(entries)) {
      const target = manifest.exports[subpath]!;
      expect(existsSync(join(installed, target.types)), `${specifierOf(subpath)} types`).toBe(true);
      expect(existsSync(join(installed, target.default)), `${specifierOf(subpath)} default`).toBe(true);
    }
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['@ai-sdk/provider', '@opentelemetry/api', 'ai', 'valibot']);
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@ai-sdk/'))).toEqual([]);
  });

  it('loads every entry from plain Node', () => {
    const script = Object.keys(entries)
      .map((subpath) => `await import(${JSON.stringify(specifierOf(subpath))});`)
      .join('\n');
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', `${script}\nconsole.log('loaded');`], { cwd: consumer, encoding: 'utf8' });
    expect(output.trim()).toBe('loaded');
  });

  it('runs an agent and a code-mode program from a plain Node ESM script (no TypeScript loader)', () => {
    const output = execFileSync(process.execPath, ['node/agent.mjs'], { cwd: consumer, encoding: 'utf8' });
    const result = JSON.parse(output) as { outcome: string; response: string; program: unknown; typed: unknown };
    expect(result.outcome).toBe('completed');
    expect(result.response).toContain('Ships in 3 to 5 days.');
    expect(result.program).toEqual([2, 4, 6]);
    expect(result.typed).toEqual([14, 21]);
  });
});
