import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Sizes of one `wrangler deploy --dry-run --outdir` build: JS and wasm, raw and gzip -9, in bytes. */
export interface BundleSize {
  jsRaw: number;
  jsGzip: number;
  wasmRaw: number;
  wasmGzip: number;
}

/** Builds `config` with wrangler's dry run (no login, no network) and measures what it would upload. */
export function measureBundle(root: string, config: string, minify = false): BundleSize {
  const outdir = mkdtempSync(join(tmpdir(), 'ghostlight-bundle-'));
  mkdirSync(join(root, 'dist-web'), { recursive: true });
  try {
    const result = spawnSync(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir, '--config', config, ...(minify ? ['--minify'] : [])], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' },
    });
    if (result.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${result.stdout}\n${result.stderr}`);
    const size: BundleSize = { jsRaw: 0, jsGzip: 0, wasmRaw: 0, wasmGzip: 0 };
    for (const file of readdirSync(outdir)) {
      if (file.endsWith('.map') || file === 'README.md' || statSync(join(outdir, file)).isDirectory()) continue;
      const bytes = readFileSync(join(outdir, file));
      const gz = gzipSync(bytes, { level: 9 }).length;
      if (file.endsWith('.js') || file.endsWith('.mjs')) {
        size.jsRaw += bytes.length;
        size.jsGzip += gz;
      } else {
        size.wasmRaw += bytes.length;
        size.wasmGzip += gz;
      }
    }
    return size;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
