import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './realworld';

/** A `wrangler dev` of this project's Worker on 127.0.0.1, started in its own process group. */
export interface WranglerDev {
  readonly origin: string;
  /** The pid of the wrangler process (workerd runs below it). */
  readonly pid: number;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` (offline flags from STACK.md G5) and waits until it
 * answers `GET /api` (or `readyPath`). `persistTo` keeps Durable Object storage across
 * restarts. Always `stop()` it: that kills the whole process group.
 *
 * With the project's own wrangler.toml (no `config`), the Worker serves an
 * empty private folder as its static assets instead of `dist-web/` (the
 * playground that `npm start` builds): these tests call the API only, so they
 * need no build, and a playground build running at the same time (the e2e
 * tests) cannot change the files under a running `wrangler dev`.
 */
export async function startWranglerDev(options: { port: number; inspectorPort: number; persistTo: string; config?: string; vars?: Record<string, string>; readyPath?: string }): Promise<WranglerDev> {
  const assets = options.config ? undefined : mkdtempSync(join(tmpdir(), 'ghostlight-wrangler-assets-'));
  const args = [
    join(projectRoot, 'node_modules/wrangler/bin/wrangler.js'),
    'dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--inspector-port', String(options.inspectorPort),
    '--persist-to', options.persistTo,
    '--show-interactive-dev-session=false',
    ...(options.config ? ['--config', options.config] : []),
    ...(assets ? ['--assets', assets] : []),
    ...Object.entries(options.vars ?? {}).flatMap(([key, value]) => ['--var', `${key}:${value}`]),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (assets) void exited.then(() => rmSync(assets, { recursive: true, force: true }));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const origin = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const response = await fetch(`${origin}${options.readyPath ?? '/api'}`);
      if (response.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, pid: child.pid!, output: () => output, stop };
}
