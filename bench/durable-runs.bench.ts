// Durable runs (issue 18): the same agent served in the isolate and in one Durable Object per run, under one
// wrangler dev: run throughput, the cost of replaying a finished run's events (from the object's memory, and
// from its storage after a restart) against the in-isolate registry; and the gzip cost durable runs add to a
// Worker bundle (esbuild, minified, as wrangler bundles).
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort } from '../test/support/ports';
import { projectRoot } from '../test/support/realworld';
import { startWranglerDev } from '../test/support/wrangler-dev';
import type { WranglerDev } from '../test/support/wrangler-dev';
import type { BenchSection } from './harness';
import { median, ms } from './harness';

const RUNS = 160;
const CONCURRENCY = 8;
const REPLAYED = 20;
const REPLAY_ROUNDS = 5;
const KiB = 1024;

async function gzipKiB(file: string): Promise<number> {
  const outcome = await build({
    entryPoints: [join(projectRoot, 'bench/durable-runs', file)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    tsconfigRaw: {},
    write: false,
    logLevel: 'silent',
  });
  return gzipSync(outcome.outputFiles[0]!.contents, { level: 9 }).length / KiB;
}

/** Starts `count` JSON runs, `CONCURRENCY` at a time; returns runs per second and their ids. */
async function throughput(origin: string, prefix: string, count: number): Promise<{ perSecond: number; runIds: string[] }> {
  const runIds: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(`${origin}${prefix}/agents/chat/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"Hello"}' });
        const run = (await response.json()) as { runId: string; outcome: string };
        if (run.outcome !== 'completed') throw new Error(`A run ended ${run.outcome}`);
        runIds.push(run.runId);
      }
    }),
  );
  return { perSecond: (count / (performance.now() - started)) * 1000, runIds };
}

/** Reads each run's events from 0, `REPLAY_ROUNDS` times; returns the median read time and the events per read. */
async function replay(origin: string, prefix: string, runIds: string[]): Promise<{ median: number; events: number }> {
  const durations: number[] = [];
  let events = 0;
  for (let round = 0; round < REPLAY_ROUNDS; round++) {
    for (const runId of runIds) {
      const started = performance.now();
      const text = await (await fetch(`${origin}${prefix}/agents/chat/runs/${runId}/events`)).text();
      durations.push(performance.now() - started);
      events = text.split('\n\n').filter((block) => block.includes('data:')).length;
    }
  }
  return { median: median(durations), events };
}

export async function bench(): Promise<BenchSection> {
  const baseline = await gzipKiB('http-only.ts');
  const durable = await gzipKiB('with-durable-runs.ts');

  const persistTo = mkdtempSync(join(tmpdir(), 'ghostlight-durable-runs-bench-'));
  const options = { port: await freePort(), inspectorPort: await freePort(), persistTo, config: join(projectRoot, 'bench/durable-runs/wrangler.toml'), readyPath: '/agents' };
  let dev: WranglerDev | undefined = await startWranglerDev(options);
  try {
    const load = loadavg()[0]!;
    await throughput(dev.origin, '/local', 16);
    await throughput(dev.origin, '', 16);
    const local = await throughput(dev.origin, '/local', RUNS);
    const hosted = await throughput(dev.origin, '', RUNS);
    const local2 = await throughput(dev.origin, '/local', RUNS);
    const hosted2 = await throughput(dev.origin, '', RUNS);
    const localRate = median([local.perSecond, local2.perSecond]);
    const hostedRate = median([hosted.perSecond, hosted2.perSecond]);
    console.log(`runs/s: isolate ${localRate.toFixed(0)}, durable ${hostedRate.toFixed(0)}`);

    // The registry keeps an actor's latest 100 runs: replay the latest of each host.
    const localReplay = await replay(dev.origin, '/local', local2.runIds.slice(-REPLAYED));
    const memoryReplay = await replay(dev.origin, '', hosted2.runIds.slice(-REPLAYED));
    await dev.stop();
    dev = await startWranglerDev(options);
    const storedReplay = await replay(dev.origin, '', hosted2.runIds.slice(-REPLAYED));
    console.log(`replay: isolate ${ms(localReplay.median)}, object memory ${ms(memoryReplay.median)}, object storage ${ms(storedReplay.median)}`);

    const markdown = `
The same one-turn agent (a scripted model streaming a 60-word answer: ${localReplay.events} events a run) served by two
\`createAgentApp\`s in one Worker under one \`wrangler dev\` (workerd, local mode, SQLite-backed Durable Objects
persisted to a temporary folder) on 127.0.0.1: \`/local/agents/chat/runs\` keeps runs in the isolate (\`RunRegistry\`),
\`/agents/chat/runs\` hosts each run in its own Durable Object (\`durableRuns\` + \`defineRunDurableObject\`), which
stores every event as it is written. Node's \`fetch\` is the client; it, wrangler and workerd share the machine's 2
cores (load average ${load.toFixed(1)} when the run started: other work was running), so absolute figures are noisy;
the ratios are the point.

**Run throughput** (${RUNS} JSON runs, ${CONCURRENCY} at a time, two rounds each, alternating, median):

| runs | runs/s |
|---|---|
| in the isolate | ${localRate.toFixed(0)} |
| one Durable Object per run | ${hostedRate.toFixed(0)} |

**Durable / isolate throughput: ${(hostedRate / localRate).toFixed(2)}×.** A durable run adds a new object (under
\`wrangler dev\` each Durable Object is its own SQLite file), a second hop (Worker → object), the storage writes of
its events (batched: those within 10 ms in one write), its meta row and one alarm. That is the price of a run that
any isolate can reach and that outlives a restart; a deployment that needs neither keeps runs in the isolate.

**Replaying a finished run** (\`GET /agents/chat/runs/:runId/events\` from 0, ${REPLAYED} runs × ${REPLAY_ROUNDS} reads, median per read):

| log read from | per read | vs the isolate |
|---|---|---|
| the isolate's registry (in memory; gone after a restart or in another isolate) | ${ms(localReplay.median)} | 1.00× |
| the run's object, from its memory (the instance that ran it) | ${ms(memoryReplay.median)} | ${(memoryReplay.median / localReplay.median).toFixed(2)}× |
| the run's object after a \`wrangler dev\` restart, from its storage (rows of JSON) | ${ms(storedReplay.median)} | ${(storedReplay.median / localReplay.median).toFixed(2)}× |

**Bundle cost** (esbuild, minified, ESM, the workerd conditions, gzip -9; \`bench/durable-runs/\`): one agent served by
\`createAgentApp\` is ${baseline.toFixed(1)} KiB; adding \`durableRuns\` and \`defineRunDurableObject\` makes it
${durable.toFixed(1)} KiB: **+${(durable - baseline).toFixed(1)} KiB gzip** (the run object, its stored log and the
JSON-lines hop; the interject and cancel routes are part of \`createAgentApp\` in both).
The interject, cancel and detach routes themselves (with the interjection queue they call) cost every \`createAgentApp\`
Worker 2.3 KiB gzip: \`http-only.ts\` bundled the same way from \`main\`'s sources before them was 53.8 KiB (measured once, by hand).
`;
    return { key: 'durable-runs', title: 'Durable runs: one Durable Object per run vs the in-isolate registry (issue 18)', markdown };
  } finally {
    await dev?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
