import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../support/realworld';

export { freePort } from '../support/ports';

/** A long-running tool (wrangler dev, vite preview) in its own process group, stopped with everything below it. */
export interface Background {
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Environment that keeps wrangler offline (../shared/STACK.md G5). */
export const OFFLINE_WRANGLER = { WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' };

/** Starts a repository binary (`wrangler`, `vite`) on Node in `cwd`, then waits until `ready()` holds. */
export async function startBackground(bin: string, args: string[], cwd: string, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<Background> {
  const child: ChildProcess = spawn(process.execPath, [join(projectRoot, 'node_modules', bin), ...args], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...OFFLINE_WRANGLER },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${bin} exited early:\n${output}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${bin} was not ready within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { output: () => output, stop };
}
