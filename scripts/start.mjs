// `npm start`: serve the Ghostlight Worker under `wrangler dev` on 127.0.0.1, offline-safe.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = process.env.PORT ?? '8787';
const provider =
  process.env.OPENAI_BASE_URL ? `an OpenAI-compatible server at ${process.env.OPENAI_BASE_URL}`
  : process.env.OPENAI_API_KEY ? 'OpenAI (OPENAI_API_KEY)'
  : process.env.ANTHROPIC_API_KEY ? 'Anthropic (ANTHROPIC_API_KEY)'
  : "Ghostlight's offline demo model (no provider key configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL to use a real model)";

console.log(`Ghostlight: starting the Worker with ${provider}.`);
console.log(`Ghostlight: open http://127.0.0.1:${port}/ for the playground (agents run in your browser tab or on this Worker); the API is at /agents.`);
console.log(`Try: curl -s -X POST -H 'content-type: application/json' -d '{"input":"How long does shipping take?"}' http://127.0.0.1:${port}/agents/support/runs`);

// The Worker serves the playground from dist-web/ (wrangler assets): build it when the project can, otherwise
// leave the folder empty and the Worker answers `/` with a placeholder page.
const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts ?? {};
if (scripts['build:web'] && existsSync(new URL('../web', import.meta.url))) {
  console.log('Ghostlight: building the playground (npm run build:web)...');
  const built = spawnSync('npm', ['run', '-s', 'build:web'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
mkdirSync(new URL('../dist-web', import.meta.url), { recursive: true });

// Hand only the provider settings to the Worker, through a private env file removed on exit.
const forwarded = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_MODEL']
  .filter((key) => process.env[key])
  .map((key) => `${key}=${JSON.stringify(process.env[key])}`);
const args = ['dev', '--ip', '127.0.0.1', '--port', port, '--show-interactive-dev-session=false'];
let envDir;
if (forwarded.length > 0) {
  envDir = mkdtempSync(join(tmpdir(), 'ghostlight-'));
  writeFileSync(join(envDir, 'provider.env'), `${forwarded.join('\n')}\n`, { mode: 0o600 });
  args.push('--env-file', join(envDir, 'provider.env'));
}
process.on('exit', () => envDir && rmSync(envDir, { recursive: true, force: true }));

const child = spawn(
  'wrangler',
  args,
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      // Keep wrangler offline: no metrics, no error reports, no Request.cf lookup (../shared/STACK.md G5).
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
