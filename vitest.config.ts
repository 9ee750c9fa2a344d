import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumLaunch } from './test/support/chromium.ts';
import { sourceAliases } from './scripts/entries.mjs';

const root = new URL('.', import.meta.url).pathname.replace(/\/$/, '');

/**
 * In-repo code imports Ghostlight as users do (`ghostlight`, `ghostlight/code-mode`, …): these aliases map
 * each entry to its source, with the runtime's build of the private `#quickjs-variant` import.
 */
const runtimeModule = (name: 'node' | 'workerd' | 'chromium') => ({
  ...sourceAliases(root, name === 'chromium' ? 'browser' : name),
  '#test-runtime': `${root}/test/runtime/${name}.ts`,
});

/** Starts the real MCP server-everything on 127.0.0.1 for a project; tests `inject('mcpOrigin')`. */
const mcpServer = './test/support/mcp-global-setup.ts';

/** `npm run bench -- code-mode-hostile` asks the hostile-program corpus to print its measurements. */
const hostileReport = process.env.GHOSTLIGHT_HOSTILE_REPORT === '1';

/** Debian's /usr/bin/chromium when present, else the one in @sparticuz/chromium (test/support/chromium.ts). */
const chromium = await chromiumLaunch();

/**
 * One contract suite (`test/contract/`) runs unchanged in three runtimes:
 * Node, workerd (through @cloudflare/vitest-plugin) and Chromium (vitest
 * browser mode). Unit tests sit beside the code and run in Node.
 */
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        resolve: { alias: runtimeModule('node') },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/node/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias: runtimeModule('node') },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'package',
          environment: 'node',
          include: ['test/package/**/*.test.ts'],
          globalSetup: ['./test/package/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        resolve: { alias: runtimeModule('node') },
        test: {
          name: 'contract:node',
          provide: { hostileReport },
          environment: 'node',
          include: ['test/contract/**/*.test.ts'],
          globalSetup: [mcpServer],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
        resolve: { alias: runtimeModule('workerd') },
        test: {
          name: 'contract:workerd',
          provide: { hostileReport },
          include: ['test/contract/**/*.test.ts', 'test/workerd/**/*.test.ts'],
          globalSetup: [mcpServer],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: runtimeModule('chromium') },
        test: {
          name: 'contract:chromium',
          provide: { hostileReport },
          include: ['test/contract/**/*.test.ts', 'test/browser/**/*.test.ts'],
          globalSetup: [mcpServer],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            // Heap measurements of the hostile-program corpus: a collectable, precisely reported heap.
            provider: playwright({
              launchOptions: { executablePath: chromium.executablePath, args: [...chromium.args, '--js-flags=--expose-gc', '--enable-precise-memory-info'] },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
