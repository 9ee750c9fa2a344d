// Code mode under attack (issue 19): the hostile-program corpus (test/contract/code-mode-hostile.test.ts) run by
// vitest in Node (worker threads), workerd (QuickJS on the thread, builtin bounds) and Chromium (a Web Worker),
// with each program's measurements printed by the test (GHOSTLIGHT_HOSTILE_REPORT=1); then, in this process, the
// nastiest programs through Ghostlight's default Node engine and through `@ai-sdk/code-mode` (QuickJS in worker
// threads with a wall-clock timeout), the real alternative, under the same 100 ms budget.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { experimental_runCodeMode as aiSdkRunCodeMode } from '@ai-sdk/code-mode';
import { createWorkerThreadCodeEngine } from 'ghostlight/node';
import { runCode } from 'ghostlight/code-mode';
import type { BenchSection } from './harness';
import { median, ms } from './harness';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CPU_MS = 100;
const BOUND = 2 * CPU_MS + 50;

interface Measurement {
  runtime: 'node' | 'workerd' | 'chromium';
  name: string;
  kind: string;
  inThread: boolean;
  /** The program waits on tools by design: its stop time is not CPU-bound. */
  waits: boolean;
  boundMs: number;
  stoppedMs: number;
  blockedMs: number;
  retainedBytes: number | undefined;
  outcome: string;
}

/** Programs the test runs on workerd without holding them to the bound (docs/code-mode.md, "Stopping programs"). */
const UNBOUNDED_IN_THREAD = new Set(['stack overflow caught and recursed', 'the wall limit while a long builtin runs']);

export async function bench(): Promise<BenchSection> {
  const measurements = corpus();
  const comparison = await compare();
  return {
    key: 'code-mode-hostile',
    title: 'Code mode under attack (issue 19)',
    markdown: `${runtimes(measurements)}\n\n${classes(measurements)}\n\n${residual(measurements)}\n\n${comparison}`,
  };
}

function corpus(): Measurement[] {
  const args = ['vitest', 'run', '--project', 'contract:node', '--project', 'contract:workerd', '--project', 'contract:chromium', 'test/contract/code-mode-hostile.test.ts'];
  console.log(`npx ${args.join(' ')}`);
  const run = spawnSync('npx', args, { cwd: root, env: { ...process.env, GHOSTLIGHT_HOSTILE_REPORT: '1' }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const text = `${run.stdout}\n${run.stderr}`;
  const rows = [...text.matchAll(/HOSTILE (\{.*\})/g)].map((match) => JSON.parse(match[1]!) as Measurement);
  if (run.status !== 0) console.warn(`the corpus reported failures (exit ${run.status}); figures below are from the programs that ran`);
  if (rows.length === 0) throw new Error(`no HOSTILE lines in the vitest output:\n${text.slice(-2000)}`);
  return rows;
}

const ENGINES = {
  node: 'worker threads (terminated past the budget)',
  chromium: 'a Web Worker (terminated past the budget)',
  workerd: 'QuickJS on the isolate thread, builtin bounds',
} as const;

function worst(rows: Measurement[], key: 'stoppedMs' | 'blockedMs'): Measurement {
  return rows.reduce((best, row) => (row[key] > best[key] ? row : best));
}

function runtimes(rows: Measurement[]): string {
  const lines = (['node', 'workerd', 'chromium'] as const).map((runtime) => {
    const all = rows.filter((row) => row.runtime === runtime);
    const bounded = all.filter((row) => !(row.inThread && UNBOUNDED_IN_THREAD.has(row.name)));
    const stop = worst(bounded.filter((row) => !row.waits), 'stoppedMs');
    const blocked = worst(bounded, 'blockedMs');
    const retained = all.map((row) => row.retainedBytes).filter((bytes): bytes is number => bytes !== undefined);
    const over = bounded.filter((row) => row.blockedMs > row.boundMs || (!row.waits && row.stoppedMs > row.boundMs)).length;
    const retainedText = retained.length === 0 ? 'not measurable (no heap API in workerd)' : `${(Math.max(...retained) / 1048576).toFixed(1)} MiB`;
    return `| ${runtime} | ${ENGINES[runtime]} | ${all.length} | ${ms(blocked.blockedMs)} (${blocked.name}) | ${ms(stop.stoppedMs)} (${stop.name}) | ${retainedText} | ${over} |`;
  });
  return `Before the fixes (issue 19) the host never returned from \`includes\` over an array-like of length 2^53 − 1, \`join\` of \`new Array(2 ** 32 - 1)\`, a loop of BigInt \`toString\` calls or a promise-job fan-out, and stalled for seconds on a quadratic \`indexOf\` (4.0 s), a loop of 2 ms builtin calls (11 s) and 20,000 \`for (;;) await 0\` loops (54 s), with \`cpuMs\` 100–200 (as reported in the issue).

Limits of every program: \`cpuMs\` ${CPU_MS} for the programs that attack the CPU budget and 1,000 for the others (whose point is another limit or a value), \`memoryBytes\` 16 MiB, \`outputBytes\` 100,000. The bound is **2 × cpuMs + 50 ms = ${BOUND} ms** of host time for the first ("over the bound" compares each program with its own); host memory retained is bounded by 2 × memoryBytes = 32 MiB. Stop times count from the program's start (from the abort or the wall limit for the programs stopped that way) and include the runtime's own scheduling, with all three runtimes running at once on this machine.

| runtime | engine | programs | longest host event-loop gap | longest time to stop | most host heap retained | over the bound (gap or stop) |
|---|---|---|---|---|---|---|
${lines.join('\n')}`;
}

function classes(rows: Measurement[]): string {
  const kinds = [...new Set(rows.map((row) => row.kind))];
  const cell = (kind: string, runtime: Measurement['runtime']) => {
    const matching = rows.filter((row) => row.kind === kind && row.runtime === runtime && !(row.inThread && UNBOUNDED_IN_THREAD.has(row.name)));
    if (matching.length === 0) return '—';
    const cpuBound = matching.filter((row) => !row.waits);
    const stop = cpuBound.length > 0 ? ms(worst(cpuBound, 'stoppedMs').stoppedMs) : '(waits on tools)';
    const blocked = worst(matching, 'blockedMs');
    return `${stop} / ${ms(blocked.blockedMs)}`;
  };
  const lines = kinds.map((kind) => `| ${kind} | ${rows.filter((row) => row.kind === kind && row.runtime === 'node').length} | ${cell(kind, 'node')} | ${cell(kind, 'workerd')} | ${cell(kind, 'chromium')} |`);
  return `Worst time to stop / longest host gap per class (the time to stop leaves out the programs that wait on their tools by design, such as 40 calls with 1 MiB arguments):

| class | programs | Node | workerd | Chromium |
|---|---|---|---|---|
${lines.join('\n')}`;
}

function residual(rows: Measurement[]): string {
  const inThread = rows.filter((row) => row.runtime === 'workerd' && UNBOUNDED_IN_THREAD.has(row.name));
  const lines = inThread.map((row) => `| ${row.name} | ${ms(row.stoppedMs)} | ${ms(row.blockedMs)} | ${row.outcome} |`);
  return `What no in-thread bound stops in time (workerd; Node and Chromium hold these to the bound by terminating the worker). Two more classes are not run on workerd at all because they would hold the isolate for minutes: BigInt arithmetic on numbers of hundreds of thousands of bits, and an abort while a string comparison loop runs (the abort waits for the CPU budget):

| program on workerd | time to stop | host blocked | outcome |
|---|---|---|---|
${lines.join('\n')}`;
}

/** The nastiest programs, warm, through Ghostlight's default Node engine and @ai-sdk/code-mode, 100 ms each. */
async function compare(): Promise<string> {
  const programs: Array<[string, string]> = [
    ['busy loop', 'while (true) {}'],
    ['includes over an array-like of length 2^53-1', 'return Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1);'],
    ['join of new Array(2^32-1)', 'return new Array(2 ** 32 - 1).join("").length;'],
    ['string comparisons over 1 MB in a loop', 'const s = "x".repeat(1e6), t = "x".repeat(1e6); for (;;) s === t;'],
    ['stack overflow caught and recursed', 'function f() { try { f(); } catch { f(); } } f();'],
    ['quadratic indexOf', 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.indexOf(n);'],
    ['a promise-job fan-out', 'const f = () => { Promise.resolve().then(f); Promise.resolve().then(f); }; f(); await new Promise(() => {});'],
  ];
  const engine = createWorkerThreadCodeEngine();
  const ours = (source: string) => runCode(source, { engine, limits: { cpuMs: CPU_MS, memoryBytes: 16 * 1024 * 1024 } });
  const theirs = (source: string) =>
    aiSdkRunCodeMode({ js: source, tools: {}, options: { executionPolicy: { timeoutMs: CPU_MS, memoryLimitBytes: 16 * 1024 * 1024 } } });
  await engine.ready();
  await theirs('return 1').catch(() => undefined);
  const rows: string[] = [];
  for (const [name, source] of programs) {
    const ghost: number[] = [];
    const ai: number[] = [];
    let ghostGap = 0;
    let aiGap = 0;
    for (let round = 0; round < 3; round++) {
      await engine.ready();
      const g = await measure(() => ours(source));
      ghost.push(g.stoppedMs);
      ghostGap = Math.max(ghostGap, g.blockedMs);
      const a = await measure(() => theirs(source));
      ai.push(a.stoppedMs);
      aiGap = Math.max(aiGap, a.blockedMs);
    }
    rows.push(`| ${name} | ${ms(median(ghost))} / ${ms(ghostGap)} | ${ms(median(ai))} / ${ms(aiGap)} |`);
  }
  return `Against the real alternative in Node, in this process (median time to stop of 3 warm runs / longest host gap; Ghostlight's \`cpuMs\` and \`@ai-sdk/code-mode\`'s \`timeoutMs\` both ${CPU_MS} ms). Both terminate a worker thread; \`@ai-sdk/code-mode\`'s limit is wall time (a program waiting on a slow tool is stopped too, and a cold worker's start counts), Ghostlight's is the program's CPU time, and Ghostlight holds the same bound in browsers (a Web Worker) and, for every class above but the listed ones, on Workers:

| program | Ghostlight default engine (worker threads) | \`@ai-sdk/code-mode\` 1.0.42 |
|---|---|---|
${rows.join('\n')}

Load average while measuring: ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (the machine is shared).`;
}

async function measure(task: () => Promise<unknown>): Promise<{ stoppedMs: number; blockedMs: number }> {
  let blockedMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    blockedMs = Math.max(blockedMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await task().catch(() => undefined);
  const stoppedMs = performance.now() - started;
  clearInterval(probe);
  return { stoppedMs, blockedMs: Math.max(blockedMs, performance.now() - last) };
}
