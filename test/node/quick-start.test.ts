import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../support/realworld';

describe('the README quick start', () => {
  it('is the file examples/quick-start.ts, word for word', () => {
    const example = readFileSync(`${projectRoot}/examples/quick-start.ts`, 'utf8').trim();
    const readme = readFileSync(`${projectRoot}/README.md`, 'utf8');
    expect(readme).toContain(example);
    expect(example.split('\n').length).toBeLessThanOrEqual(25);
  });

  it('really runs: the agent calls its tool and answers from the result, offline', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    try {
      await import('../../examples/quick-start');
    } finally {
      log.mockRestore();
    }
    expect(lines[0]).toMatch(/^completed Here is what I found/);
    expect(lines[0]).toContain('Ships in 3 to 5 days.');
    expect(lines).toContain('help_center_lookup → Refunds within 30 days.');
  });
});
