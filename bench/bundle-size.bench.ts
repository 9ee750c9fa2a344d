import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, overBudget, report } from '../scripts/bundle-sizes.mjs';
import type { BenchSection } from './harness';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundle sizes of fixed Worker programs (bench/size/) against the freshly built package, with AI SDK's own agent
 * measured the same way. Deterministic, so `npm test` enforces the budgets (test/package/bundle-size.test.ts).
 */
export async function bench(): Promise<BenchSection> {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  const results = await measure(root);
  const over = overBudget(results);
  if (over.length > 0) throw new Error(`over budget: ${over.map((result) => result.name).join(', ')}`);
  return { key: 'bundle-size', title: 'Bundle sizes (issue 12)', markdown: report(results).split('\n').slice(2).join('\n') };
}
