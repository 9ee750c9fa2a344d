// `npm run size`: the gzip size of fixed Worker programs (bench/size/), bundled the way wrangler bundles a Worker
// (esbuild, minified, ESM, the workerd/worker/browser conditions), against the built package in dist/ (run
// `npm run build` first) or, with --package DIR, against an installed copy (the packed tarball, as the package
// tests use it). AI SDK's own ToolLoopAgent is measured the same way, in the same run.
//
// Sizes are deterministic, so the budgets are enforced: exit code 1 when one is exceeded.
// `npm run bench -- bundle-size` writes the figures into BENCHMARKS.md (bench/bundle-size.bench.ts).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KiB = 1024;

/** The measured programs, their budgets (gzip KiB of JavaScript; null: measured for comparison). */
export const PROGRAMS = [
  { name: 'Minimal Worker', file: 'minimal-worker.ts', what: '`defineAgent` + `defineTool` + `createAgentApp`', budget: 100 },
  {
    name: 'Full Worker',
    file: 'full-worker.ts',
    what: 'workspace, sandbox, filesystem tools, shell, code mode, skills, artifacts, subagents, context management, write_todos, MCP, Durable Object sessions, HTTP',
    budget: 200,
  },
  { name: "AI SDK's ToolLoopAgent", file: 'ai-sdk-agent.ts', what: '`ToolLoopAgent` + `tool` from `ai` (no HTTP)', budget: null },
];

/**
 * Bundles each program against the package at `packageDir` (a folder holding `package.json` and `dist/`) and
 * returns their sizes. The programs are copied into a temporary project whose node_modules links the package
 * and the repository's own dependencies, so `ghostlight/...` resolves through the package's `exports`.
 */
export async function measure(packageDir = root) {
  const project = mkdtempSync(join(tmpdir(), 'ghostlight-size-'));
  try {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(packageDir, join(project, 'node_modules', 'ghostlight'), 'dir');
    cpSync(join(root, 'bench', 'size'), join(project, 'programs'), { recursive: true });
    const results = [];
    for (const program of PROGRAMS) {
      const outcome = await build({
        entryPoints: [join(project, 'programs', program.file)],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'neutral',
        conditions: ['workerd', 'worker', 'browser'],
        mainFields: ['module', 'main'],
        external: ['node:*', 'cloudflare:*'],
        loader: { '.wasm': 'file' },
        // No tsconfig: this repository's tsconfig paths (for its own sources) must not redirect the package's imports.
        tsconfigRaw: {},
        nodePaths: [join(root, 'node_modules')],
        outdir: join(project, 'out'),
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      const js = outcome.outputFiles.filter((file) => file.path.endsWith('.js'));
      const wasm = outcome.outputFiles.filter((file) => file.path.endsWith('.wasm'));
      const bytes = js.reduce((sum, file) => sum + file.contents.byteLength, 0);
      const gzip = js.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).byteLength, 0);
      const wasmBytes = wasm.reduce((sum, file) => sum + file.contents.byteLength, 0);
      results.push({ ...program, bytes, gzip, wasmBytes, packages: largestPackages(outcome.metafile) });
    }
    return results;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** The biggest contributors to a bundle, by package (ours by folder), in minified bytes. */
function largestPackages(metafile) {
  const output = Object.values(metafile.outputs).find((entry) => entry.entryPoint);
  const sizes = new Map();
  for (const [path, input] of Object.entries(output.inputs)) {
    const inPackage = path.includes('node_modules/') ? path.split('node_modules/').pop() : undefined;
    const ours = inPackage === undefined ? /(?:^|\/)dist\/(.+)$/.exec(path)?.[1] : /^ghostlight\/dist\/(.+)$/.exec(inPackage)?.[1];
    const key = ours !== undefined
      ? `ghostlight/${ours.split('/').slice(0, ours.startsWith('adapter/') ? 2 : 1).join('/')}`
      : inPackage !== undefined
        ? inPackage.split('/').slice(0, inPackage.startsWith('@') ? 2 : 1).join('/')
        : path;
    sizes.set(key, (sizes.get(key) ?? 0) + input.bytesInOutput);
  }
  return [...sizes].sort((left, right) => right[1] - left[1]).slice(0, 8);
}

/** Which budgets the results exceed (empty when all hold). */
export function overBudget(results) {
  return results.filter((result) => result.budget !== null && result.gzip > result.budget * KiB);
}

/** The BENCHMARKS.md section: a heading, how the figures are made, the table and the largest parts. */
export function report(results) {
  const baseline = results.find((result) => result.budget === null);
  const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;
  const lines = [
    '## Bundle sizes',
    '',
    'Each program in `bench/size/` is bundled as wrangler bundles a Worker (esbuild, minified, ESM, conditions',
    '`workerd,worker,browser`) against the built package, then gzipped at level 9; the QuickJS `.wasm` (a separate',
    'Worker module) is listed apart. Sizes are deterministic: `npm test` fails when a budget is exceeded',
    '(`test/package/bundle-size.test.ts`, against the packed tarball). `npm run size` prints them.',
    '',
    '| program | what it imports | minified | gzip | budget | vs AI SDK agent | wasm |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (result) =>
        `| ${result.name} | ${result.what} | ${kib(result.bytes)} | **${kib(result.gzip)}** | ${result.budget === null ? '—' : `≤ ${result.budget} KiB`} | ${
          baseline ? `${(result.gzip / baseline.gzip).toFixed(2)}×` : '—'
        } | ${result.wasmBytes ? kib(result.wasmBytes) : '—'} |`,
    ),
    '',
    'Largest parts (minified bytes):',
    '',
    ...results.map((result) => `- ${result.name}: ${result.packages.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ')}`),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packageFlag = process.argv.indexOf('--package');
  const results = await measure(packageFlag === -1 ? root : resolve(process.argv[packageFlag + 1]));
  console.log(report(results));
  const over = overBudget(results);
  for (const result of over) console.error(`over budget: ${result.name} is ${(result.gzip / KiB).toFixed(1)} KiB gzip (budget ${result.budget} KiB)`);
  process.exit(over.length > 0 ? 1 : 0);
}
