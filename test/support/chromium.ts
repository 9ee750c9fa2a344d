import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * How the tests launch Chromium (vitest browser mode, the playground e2e
 * tests, the browser reload test): Debian's `/usr/bin/chromium` when the
 * machine has it, else the headless Chromium shipped inside the
 * `@sparticuz/chromium` devDependency (see ../shared/STACK.md, 2026-12-01
 * addendum). Nothing is downloaded either way.
 */
export interface ChromiumLaunch {
  readonly executablePath: string;
  readonly args: string[];
  /** Which Chromium this is, for log lines. */
  readonly source: 'system' | '@sparticuz/chromium';
}

export const systemChromium = '/usr/bin/chromium';

/**
 * Flags for both binaries: headless, no sandbox (we run as root), and no
 * traffic of Chromium's own (QUIC, first-run, background networking,
 * component updates, sync) since only 127.0.0.1 is reachable.
 *
 * `@sparticuz/chromium`'s own `chromium.args` are tuned for AWS Lambda and are
 * deliberately not used: they include `--disable-web-security`,
 * `--allow-running-insecure-content` and `--single-process`, which would let a
 * page do what a user's browser refuses (cross-origin reads without CORS,
 * mixed content) and so hide exactly the bugs the browser suite is for. Its
 * binary (a headless shell) needs none of them here with playwright-core.
 */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let launch: Promise<ChromiumLaunch> | undefined;

/** Where to find Chromium and which flags to pass (resolved once per process). */
export function chromiumLaunch(): Promise<ChromiumLaunch> {
  launch ??= existsSync(systemChromium)
    ? Promise.resolve({ executablePath: systemChromium, args: chromiumArgs, source: 'system' as const })
    : unpackSparticuz().then((executablePath) => ({ executablePath, args: chromiumArgs, source: '@sparticuz/chromium' as const }));
  return launch;
}

/**
 * Unpacks `@sparticuz/chromium` once into `node_modules/.cache/` and returns
 * the binary's path.
 *
 * `chromium.executablePath()` itself unpacks into `os.tmpdir()` (the binary at
 * `$TMPDIR/chromium`, swiftshader beside it) and reuses whatever is there
 * without checking it is complete or the same version. Vitest projects and
 * workers call this concurrently, so it runs in a child process with TMPDIR
 * set to a private staging folder that is then renamed into place: the cache
 * folder is either absent or complete, and each version gets its own.
 */
async function unpackSparticuz(): Promise<string> {
  const packageDir = join(projectRoot, 'node_modules/@sparticuz/chromium');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const cacheRoot = join(projectRoot, 'node_modules/.cache/ghostlight-chromium');
  const target = join(cacheRoot, version);
  const binary = join(target, 'chromium');
  if (existsSync(binary)) return binary;

  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.unpacking-${version}-`));
  try {
    const entry = join(packageDir, 'build/index.js');
    const script = 'const { default: chromium } = await import(process.argv[1]); process.stdout.write(await chromium.executablePath());';
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, entry], {
      env: { ...process.env, TMPDIR: staging, TEMP: staging, TMP: staging },
    });
    if (stdout !== join(staging, 'chromium')) throw new Error(`@sparticuz/chromium unpacked to ${stdout}, expected ${join(staging, 'chromium')}`);
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another process finished first; its copy is complete, so use it.
      if (!existsSync(binary)) throw error;
    }
    return binary;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
