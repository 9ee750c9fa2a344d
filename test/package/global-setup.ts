import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../support/realworld';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A consumer project with the packed tarball installed: `${consumerRoot}/node_modules/ghostlight`. */
    consumerRoot: string;
  }
}

/**
 * Builds and packs the package as `npm publish` would (`prepack` is the build), then installs the tarball
 * into a fresh consumer project under a temporary folder, next to its peer dependencies, the way a user's
 * `npm install ghostlight` does. The fixture programs (test/package/fixtures/) are copied beside it; each test
 * runs one of them as a Node script, a Worker, a Vite app or a TypeScript project.
 *
 * npm takes the packages from its cache (filled by `npm ci`) and asks the registry only for what is missing.
 */
export default function setup(project: TestProject): () => void {
  const work = mkdtempSync(join(tmpdir(), 'ghostlight-consumer-'));
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  npm(['run', '-s', 'build'], projectRoot);
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], projectRoot)) as Array<{ filename: string }>;
  const tarball = join(work, packed[0]!.filename);

  const consumer = join(work, 'consumer');
  cpSync(join(projectRoot, 'test/package/fixtures'), consumer, { recursive: true });
  const ours = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const pinned = (name: string) => ours.devDependencies[name]!;
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify(
      {
        name: 'ghostlight-consumer',
        private: true,
        type: 'module',
        dependencies: {
          ghostlight: `file:${tarball}`,
          ai: pinned('ai'),
          '@ai-sdk/provider': pinned('@ai-sdk/provider'),
          valibot: pinned('valibot'),
          // The optional peer dependency of ghostlight/opentelemetry, as an application using that entry installs it.
          '@opentelemetry/api': pinned('@opentelemetry/api'),
        },
      },
      null,
      2,
    ),
  );
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], consumer);
  const installed = readdirSync(join(consumer, 'node_modules/ghostlight'));
  if (!installed.includes('dist')) throw new Error(`the installed package has no dist/: ${installed.join(', ')}`);
  project.provide('consumerRoot', consumer);
  return () => rmSync(work, { recursive: true, force: true });
}
