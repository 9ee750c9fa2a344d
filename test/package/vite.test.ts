import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { chromiumLaunch } from '../support/chromium';
import { projectRoot } from '../support/realworld';
import { freePort, startBackground } from './processes';
import type { Background } from './processes';

const app = join(inject('consumerRoot'), 'vite');
const vite = join(projectRoot, 'node_modules/vite/bin/vite.js');
const running: Background[] = [];
afterAll(async () => Promise.all(running.map((process) => process.stop())));

describe('a Vite app using the installed package', () => {
  it('builds (QuickJS wasm as an asset, its engine as a Web Worker chunk) and runs an agent, a code-mode agent and a hostile program in Chromium', async () => {
    execFileSync(process.execPath, [vite, 'build', '--outDir', 'dist', '--target', 'es2023', '--logLevel', 'warn'], { cwd: app, encoding: 'utf8' });
    const assets = readdirSync(join(app, 'dist/assets'));
    expect(assets.filter((name) => name.endsWith('.wasm'))).toHaveLength(1);
    // The default engine's worker script, bundled by Vite from `new Worker(new URL(…), { type: 'module' })`.
    expect(assets.filter((name) => /^code-engine-web-worker-.*\.js$/.test(name))).toHaveLength(1);

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    running.push(
      await startBackground('vite/bin/vite.js', ['preview', '--outDir', 'dist', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], app, async () => (await fetch(origin)).ok),
    );

    const launch = await chromiumLaunch();
    const browser = await chromium.launch({ executablePath: launch.executablePath, args: launch.args, headless: true });
    try {
      const page = await browser.newPage();
      const offsite: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(origin)) offsite.push(request.url());
      });
      await page.goto(origin);
      await page.waitForSelector('#out[data-done="1"]', { timeout: 60_000 });
      const result = JSON.parse((await page.textContent('#out')) ?? '{}') as Record<string, unknown>;
      expect(result).toMatchObject({ support: 'completed', analyst: 'completed', programs: 1, hostile: 'code-mode program exceeded its CPU limit' });
      // Stopped by terminating its Web Worker: the page's event loop kept turning (2 × cpuMs + 50 ms is the bound).
      expect(result.blockedMs).toBeLessThanOrEqual(250);
      expect(result.stoppedMs).toBeLessThanOrEqual(250 + 100);
      expect(String(result.response)).toContain('Ships in 3 to 5 days.');
      expect(offsite).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
