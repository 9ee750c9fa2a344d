import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { measure, overBudget, report } from '../../scripts/bundle-sizes.mjs';

const consumer = inject('consumerRoot');

describe('size budgets of the installed package (BENCHMARKS.md "Bundle sizes")', () => {
  it('keeps the minimal Worker under 100 KiB and the full Worker under 200 KiB gzip, below AI SDK’s agent', async () => {
    const results = await measure(join(consumer, 'node_modules/ghostlight'));
    console.info(report(results));
    expect(overBudget(results).map((result) => `${result.name}: ${(result.gzip / 1024).toFixed(1)} KiB`)).toEqual([]);
    const [minimal, full, aiSdk] = results;
    expect(minimal!.gzip).toBeLessThan(aiSdk!.gzip);
    expect(full!.wasmBytes).toBeGreaterThan(400_000);
    expect(minimal!.wasmBytes).toBe(0);
  });
});
