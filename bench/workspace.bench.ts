// The workspace's in-memory backend against memfs (the usual in-memory filesystem for JavaScript) on the same
// 10,000 files of 1 KB: write them all, read them all, list every directory, grep them all.
import { loadavg } from 'node:os';
import { Volume } from 'memfs';
import { Sandbox } from 'ghostlight/sandbox';
import { Workspace } from 'ghostlight/workspace';
import { collectGarbage, median, ms, sample } from './harness';
import type { BenchSection } from './harness';

const DIRECTORIES = 100;
const FILES_PER_DIRECTORY = 100;
const FILE_BYTES = 1024;
const ITERATIONS = 7;
const NEEDLE = 'NEEDLE';
const PATTERN = /NEE+DLE \d+/;
const PATTERN_SOURCE = 'NEE+DLE [0-9]+';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** 10,000 files of 1 KB: 16 lines of 64 bytes; one file in 50 has a matching line. */
function corpus(): Array<[string, Uint8Array]> {
  const files: Array<[string, Uint8Array]> = [];
  for (let directory = 0; directory < DIRECTORIES; directory++) {
    for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
      const index = directory * FILES_PER_DIRECTORY + file;
      const lines: string[] = [];
      for (let line = 0; line < FILE_BYTES / 64; line++) {
        const text = index % 50 === 0 && line === 7 ? `${NEEDLE} ${index} found here` : `line ${line} of file ${index} with filler text`;
        lines.push(text.padEnd(63, '.'));
      }
      files.push([`d${String(directory).padStart(3, '0')}/f${String(file).padStart(3, '0')}.txt`, encoder.encode(`${lines.join('\n')}\n`)]);
    }
  }
  return files;
}

async function ghostlightWrite(files: Array<[string, Uint8Array]>): Promise<Workspace> {
  const workspace = await Workspace.open();
  for (const [path, data] of files) await workspace.writeFile(path, data, { parents: true });
  return workspace;
}

function memfsWrite(files: Array<[string, Uint8Array]>): InstanceType<typeof Volume> {
  const volume = new Volume();
  for (const [path, data] of files) {
    volume.mkdirSync(`/${path.slice(0, path.indexOf('/'))}`, { recursive: true });
    volume.writeFileSync(`/${path}`, data);
  }
  return volume;
}

async function memfsPromisesWrite(files: Array<[string, Uint8Array]>): Promise<InstanceType<typeof Volume>> {
  const volume = new Volume();
  for (const [path, data] of files) {
    await volume.promises.mkdir(`/${path.slice(0, path.indexOf('/'))}`, { recursive: true });
    await volume.promises.writeFile(`/${path}`, data);
  }
  return volume;
}

/** grep -rn over memfs: walk, read, split into lines, test each line (what a memfs-based tool would do). */
function memfsGrep(volume: InstanceType<typeof Volume>, directory = '/'): string[] {
  const matches: string[] = [];
  for (const entry of volume.readdirSync(directory, { withFileTypes: true }) as Array<{ name: string; isDirectory(): boolean }>) {
    const path = `${directory === '/' ? '' : directory}/${entry.name}`;
    if (entry.isDirectory()) {
      matches.push(...memfsGrep(volume, path));
      continue;
    }
    const lines = decoder.decode(volume.readFileSync(path) as Uint8Array).split('\n');
    lines.forEach((line, index) => {
      if (PATTERN.test(line)) matches.push(`${path.slice(1)}:${index + 1}:${line}`);
    });
  }
  return matches;
}

interface Row {
  readonly operation: string;
  readonly ghostlight: number;
  readonly memfsSync: number;
  readonly memfsPromises: number | undefined;
}

export async function bench(): Promise<BenchSection> {
  const files = corpus();
  const directories = [...new Set(files.map(([path]) => path.slice(0, path.indexOf('/'))))];
  const rows: Row[] = [];
  const measure = async (operation: string, ours: () => Promise<unknown>, sync: () => unknown, promises?: () => Promise<unknown>) => {
    collectGarbage();
    const oursTimes = await sample(ours, ITERATIONS);
    collectGarbage();
    const syncTimes = await sample(async () => sync(), ITERATIONS);
    collectGarbage();
    const promisesTimes = promises ? await sample(promises, ITERATIONS) : undefined;
    rows.push({ operation, ghostlight: median(oursTimes), memfsSync: median(syncTimes), memfsPromises: promisesTimes && median(promisesTimes) });
    console.log(`${operation}: ghostlight ${ms(median(oursTimes))}, memfs ${ms(median(syncTimes))}`);
  };

  await measure('write 10,000 files', async () => (await ghostlightWrite(files)).close(), () => memfsWrite(files), () => memfsPromisesWrite(files));

  const workspace = await ghostlightWrite(files);
  const volume = memfsWrite(files);
  const sandbox = new Sandbox({ workspace });
  await measure(
    'read 10,000 files',
    async () => {
      for (const [path] of files) await workspace.readFile(path);
    },
    () => {
      for (const [path] of files) volume.readFileSync(`/${path}`);
    },
    async () => {
      for (const [path] of files) await volume.promises.readFile(`/${path}`);
    },
  );
  await measure(
    'list 101 directories',
    async () => {
      await workspace.list('.');
      for (const directory of directories) await workspace.list(directory);
    },
    () => {
      volume.readdirSync('/', { withFileTypes: true });
      for (const directory of directories) volume.readdirSync(`/${directory}`, { withFileTypes: true });
    },
    async () => {
      await volume.promises.readdir('/', { withFileTypes: true });
      for (const directory of directories) await volume.promises.readdir(`/${directory}`, { withFileTypes: true });
    },
  );
  const expected = memfsGrep(volume).length;
  const grepped = await sandbox.grep(PATTERN_SOURCE);
  if (grepped.matches.length !== expected) throw new Error(`grep disagrees: ${grepped.matches.length} vs ${expected}`);
  await measure('grep 10,000 files (regex, 200 hits)', () => sandbox.grep(PATTERN_SOURCE), () => memfsGrep(volume));
  await measure('grep 10,000 files (fixed string)', () => sandbox.grep(NEEDLE, { fixedStrings: true }), () => memfsGrep(volume));
  await measure(
    'sandbox read 10,000 files (grants checked)',
    async () => {
      for (const [path] of files) await sandbox.readBytes(path);
    },
    () => {
      for (const [path] of files) volume.readFileSync(`/${path}`);
    },
  );
  await workspace.close();

  const table = rows
    .map((row) => {
      const promises = row.memfsPromises === undefined ? '—' : `${ms(row.memfsPromises)} (${(row.ghostlight / row.memfsPromises).toFixed(2)}×)`;
      return `| ${row.operation} | ${ms(row.ghostlight)} | ${ms(row.memfsSync)} | **${(row.ghostlight / row.memfsSync).toFixed(2)}×** | ${promises} |`;
    })
    .join('\n');
  return {
    key: 'workspace',
    title: 'Workspace in-memory backend vs memfs (issue 3)',
    markdown: `10,000 files of 1 KB in 100 directories (16 lines each; one file in 50 has a matching line), memfs ${'4.80.1'};
${ITERATIONS} runs per operation after 2 warm-ups, medians. Ghostlight goes through its async API (\`Workspace\`,
\`Sandbox.grep\`); memfs through its synchronous API (its fastest) and, where it has one, its promises API.
grep on memfs is a walk + \`readFileSync\` + per-line \`RegExp.test\`; Ghostlight's grep uses its own linear-time engine (safe for
model-written patterns) after a required-literal pre-test, or \`includes\` for fixed strings. Ratio = Ghostlight / memfs
(below 1 is faster). Load average at the end of the run: ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min;
the machine is shared, so absolute times move between runs more than the ratios do).

| operation | Ghostlight | memfs (sync) | ratio | memfs (promises) |
|---|---|---|---|---|
${table}`,
  };
}
