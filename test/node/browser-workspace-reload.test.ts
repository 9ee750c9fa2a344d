import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import type { ViteDevServer } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumLaunch } from '../support/chromium';
import { freePort } from '../support/ports';
import { projectRoot } from '../support/realworld';


describe('a browser workspace in IndexedDB', () => {
  let server: ViteDevServer | undefined;
  const profile = mkdtempSync(join(tmpdir(), 'ghostlight-workspace-reload-'));
  afterAll(async () => {
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('survives a page reload', async () => {
    const PORT = await freePort();
    server = await createServer({
      root: projectRoot,
      configFile: false,
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: PORT, strictPort: true, hmr: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    await server.listen();
    const { executablePath, args } = await chromiumLaunch();
    const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const read = async () => {
        await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 30_000 });
        return JSON.parse((await page.getAttribute('body', 'data-result'))!) as { visits: number; snapshot: { volumes: { root: Array<{ path: string }> } } };
      };
      await page.goto(`http://127.0.0.1:${PORT}/test/node/fixtures/workspace-reload.html?workspace=reload-${Date.now()}`);
      const first = await read();
      await page.reload();
      const second = await read();
      expect(errors).toEqual([]);
      expect([first.visits, second.visits]).toEqual([1, 2]);
      const withoutVisits = (snapshot: typeof first.snapshot) => snapshot.volumes.root.filter((record) => record.path !== 'visits.txt');
      expect(withoutVisits(second.snapshot)).toEqual(withoutVisits(first.snapshot));
      expect(second.snapshot.volumes.root.map((record) => record.path)).toEqual(['data', 'data/bytes.bin', 'empty', 'notes', 'notes/first.md', 'visits.txt']);
    } finally {
      await context.close();
    }
  }, 120_000);
});
