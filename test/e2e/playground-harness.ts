import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { chromiumLaunch } from '../support/chromium';
import { freePort } from '../support/ports';
import { projectRoot } from '../support/realworld';

export { freePort };

/** Where screenshots go (not committed; a reviewer looks at them after the run). */
export const screenshotDir = join(projectRoot, 'test/e2e/screenshots');

/** Builds the playground into dist-web/ exactly as `npm start` does. */
export async function buildPlayground(): Promise<void> {
  await build({ configFile: join(projectRoot, 'web.vite.config.ts'), logLevel: 'warn' });
}

/** Starts the Worker under `wrangler dev` on 127.0.0.1 (a free port) and waits until it answers. */
export async function startWorker(persistDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'wrangler',
    ['dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', persistDir, '--show-interactive-dev-session=false', '--log-level', 'warn'],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (true) {
    try {
      if ((await fetch(`${url}/agents`)).ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    },
  };
}

/** Opens Chromium with a persistent profile (so IndexedDB survives a reload). */
export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'ghostlight-e2e-'));
  mkdirSync(screenshotDir, { recursive: true });
  const { executablePath, args } = await chromiumLaunch();
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args, viewport: { width: 1280, height: 860 } });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`The page threw: ${errors.join('; ')}`);
    },
  };
}

/** Sends a message in the playground and waits for the run to end; returns the assistant turn. */
export async function send(page: Page, text: string, options: { timeout?: number } = {}) {
  const turns = page.locator('.message.assistant');
  const before = await turns.count();
  await page.fill('#prompt', text);
  await page.click('button.primary');
  const turn = turns.nth(before);
  await turn.and(page.locator('[data-outcome]')).waitFor({ timeout: options.timeout ?? 20_000 });
  return turn;
}

/** The built playground served by a fresh Worker (its own persisted state) and open in Chromium; `close()` undoes it all. */
export async function openPlayground(name: string): Promise<{ page: Page; worker: { url: string }; close(): Promise<void> }> {
  const persist = mkdtempSync(join(tmpdir(), `ghostlight-e2e-${name}-`));
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  const close = async () => {
    await browser?.close();
    await worker?.stop();
    rmSync(persist, { recursive: true, force: true });
  };
  try {
    await buildPlayground();
    worker = await startWorker(persist);
    browser = await openBrowser();
    await browser.page.goto(`${worker.url}/`);
    await browser.page.waitForSelector('#prompt');
    return { page: browser.page, worker, close };
  } catch (error) {
    await close();
    throw error;
  }
}
