import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../support/realworld';

describe('the docs/subagents.md quick start', () => {
  it('is the file examples/subagents.ts, word for word', () => {
    const example = readFileSync(`${projectRoot}/examples/subagents.ts`, 'utf8').trim();
    expect(readFileSync(`${projectRoot}/docs/subagents.md`, 'utf8')).toContain(example);
  });

  it('really runs: two researchers at once, waited for, their findings in the answer, offline', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    try {
      await import('../../examples/subagents');
    } finally {
      log.mockRestore();
    }
    expect(lines[0]).toMatch(/^Here is what my 2 subagents found/);
    expect(lines[0]).toContain('3 notes on Research solar panel prices');
    expect(lines).toContain('spawned /root/solar_panel_prices queued');
    expect(lines).toContain('turn_finished /root/wind_turbine_rivals idle');
  });
});
