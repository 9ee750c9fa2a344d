import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../support/realworld';

const consumer = inject('consumerRoot');

/** Runs tsc on a consumer tsconfig and returns its diagnostics, one per line. */
function typecheck(config: string): string[] {
  const result = spawnSync(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', config, '--pretty', 'false'], {
    cwd: join(consumer, 'typescript'),
    encoding: 'utf8',
  });
  return `${result.stdout}${result.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line));
}

/**
 * AI SDK 7's own declarations do not compile under `exactOptionalPropertyTypes` with `skipLibCheck: false`
 * (and `@ai-sdk/provider` imports `json-schema` types it does not depend on). Those diagnostics are in
 * node_modules/ai and node_modules/@ai-sdk, whatever imports them; every other diagnostic fails the test.
 */
const upstream = (line: string) => /node_modules\/(ai|@ai-sdk\/[a-z-]+)\//.test(line);

describe('a strict TypeScript consumer of the installed package', () => {
  for (const resolution of ['bundler', 'nodenext']) {
    it(`type-checks with moduleResolution ${resolution}, exactOptionalPropertyTypes and skipLibCheck false`, () => {
      const diagnostics = typecheck(`tsconfig.${resolution}.json`);
      const ours = diagnostics.filter((line) => !upstream(line));
      expect(ours).toEqual([]);
      if (diagnostics.length > 0) console.info(`[package] ${diagnostics.length} diagnostics inside AI SDK's own declarations (not Ghostlight's)`);
    });
  }
});
