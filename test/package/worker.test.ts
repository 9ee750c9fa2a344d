import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../support/realworld';
import { freePort, OFFLINE_WRANGLER, startBackground } from './processes';
import type { Background } from './processes';

const consumer = inject('consumerRoot');
const running: Background[] = [];
afterAll(async () => Promise.all(running.map((process) => process.stop())));

const wrangler = (cwd: string, args: string[]) =>
  execFileSync(process.execPath, [join(projectRoot, 'node_modules/wrangler/bin/wrangler.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...OFFLINE_WRANGLER },
  });

/** Serves a fixture Worker under `wrangler dev` with its own wrangler.toml (no rules copied from ours). */
async function serve(project: string): Promise<string> {
  const [port, inspector] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${port}`;
  const persist = mkdtempSync(join(tmpdir(), 'ghostlight-wrangler-'));
  const flags = ['--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--persist-to', persist, '--show-interactive-dev-session=false'];
  const dev = await startBackground('wrangler/bin/wrangler.js', ['dev', ...flags], join(consumer, project), async () => (await fetch(`${origin}/agents`)).status < 500);
  running.push(dev);
  return origin;
}

async function run(origin: string, agent: string, input: string): Promise<{ outcome: string; response: string; steps: Array<{ toolCalls: Array<{ toolName: string }> }> }> {
  const response = await fetch(`${origin}/agents/${agent}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  expect(response.status).toBe(200);
  return response.json() as never;
}

describe('a Worker project using the installed package', () => {
  it('builds with wrangler deploy --dry-run and answers a run under wrangler dev', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ghostlight-worker-build-'));
    const log = wrangler(join(consumer, 'worker'), ['deploy', '--dry-run', '--outdir', out]);
    expect(log).toContain('--dry-run: exiting now.');
    expect(readdirSync(out).some((name) => name.endsWith('-wasm'))).toBe(false);

    const origin = await serve('worker');
    const result = await run(origin, 'support', 'How long does shipping take?');
    expect(result.outcome).toBe('completed');
    expect(result.response).toContain('Ships in 3 to 5 days.');
  });

  it('runs code mode with only codeMode(): the workerd build of QuickJS and its wasm come from the package', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ghostlight-worker-build-'));
    wrangler(join(consumer, 'worker-code-mode'), ['deploy', '--dry-run', '--outdir', out]);
    expect(readdirSync(out).filter((name) => name.endsWith('.wasm') || name.endsWith('-wasm'))).toHaveLength(1);
    expect(existsSync(join(consumer, 'node_modules/ghostlight/dist/code-mode/quickjs/quickjs.wasm'))).toBe(true);

    const origin = await serve('worker-code-mode');
    const result = await run(origin, 'analyst', 'What are the north sales?');
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]!.toolCalls.map((call) => call.toolName)).toEqual(['exec']);
    expect(result.response).toContain('100');
  });
});
