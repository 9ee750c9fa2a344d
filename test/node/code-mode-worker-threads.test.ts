// Node's default code engine (worker threads the host terminates): what only Node shows.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defineTool } from 'ghostlight';
import { CodeLimitError, CodeProgramError, createRemoteCodeEngine, runCode } from 'ghostlight/code-mode';
import type { CodeEngineWorker, HostMessage, WorkerMessage } from 'ghostlight/code-mode';
import { createWorkerThreadCodeEngine } from 'ghostlight/node';
import { projectRoot } from '../support/realworld';

describe('the worker-thread code engine', () => {
  it('terminates a program no in-thread bound can stop, and the next program runs on a fresh worker', async () => {
    const engine = createWorkerThreadCodeEngine();
    await engine.ready();
    const started = performance.now();
    const error = await runCode('const s = "x".repeat(1e6), t = "x".repeat(1e6); for (;;) s === t;', { engine, limits: { cpuMs: 100 } }).catch((caught: unknown) => caught);
    expect(CodeLimitError.isInstance(error) && error.limit).toBe('cpu');
    expect(performance.now() - started).toBeLessThan(2 * 100 + 50 + 250);
    expect((await runCode('return 6 * 7', { engine })).value).toBe(42);
  });

  it('terminates a busy worker when the program is stopped (abort) while a step runs', async () => {
    const engine = createWorkerThreadCodeEngine();
    await engine.ready();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const error = await runCode('const s = "x".repeat(1e6), t = "x".repeat(1e6); for (;;) s === t;', { engine, limits: { cpuMs: 10_000 }, signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('CancelledError');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses tool calls in the host and delivers the refusal with the next step', async () => {
    const engine = createWorkerThreadCodeEngine();
    const echo = defineTool({ name: 'echo', description: 'Echo.', input: { type: 'object' }, execute: (input) => input });
    const { value } = await runCode('const r = await Promise.allSettled([tools.echo({ a: 1 }), tools.call("nope", {}), tools.echo(5)]); return r.map((x) => x.status === "fulfilled" ? x.value : x.reason.message);', { tools: [echo], engine });
    expect(value).toEqual([{ a: 1 }, 'Tool is not available in code mode: nope', 'Tool arguments must be an object']);
  });

  it('reports a worker that cannot start as a ConfigurationError', async () => {
    const engine = createRemoteCodeEngine({
      spawn: () => {
        throw new Error('no worker here');
      },
    });
    await expect(engine.ready()).rejects.toThrow(/could not start \(no worker here\)/);
  });

  it('turns a worker that dies mid-step into a stopped program', async () => {
    let post: ((message: WorkerMessage) => void) | undefined;
    let fail: ((error: unknown) => void) | undefined;
    const worker: CodeEngineWorker = {
      post: (message: HostMessage) => {
        if (message.type === 'start') queueMicrotask(() => post?.({ type: 'started', program: message.program }));
        if (message.type === 'step') queueMicrotask(() => fail?.(new Error('out of memory')));
      },
      onMessage: (listener) => {
        post = listener;
        queueMicrotask(() => listener({ type: 'ready' }));
      },
      onFailure: (listener) => {
        fail = listener;
      },
      terminate: () => undefined,
    };
    const engine = createRemoteCodeEngine({ spawn: () => worker, idleWorkers: 0 });
    const error = await runCode('return 1', { engine }).catch((caught: unknown) => caught);
    expect(CodeLimitError.isInstance(error) && error.limit).toBe('memory');
  });

  it('keeps a program error an ordinary error across the worker', async () => {
    const error = await runCode('throw Promise.resolve(42);', { engine: createWorkerThreadCodeEngine() }).catch((caught: unknown) => caught);
    expect(CodeProgramError.isInstance(error) && error.message).toBe('[object Promise]');
  });

  it('lets the process exit with idle workers (they are unreferenced)', () => {
    const script = `import { runCode } from './src/code-mode/index.ts'; import { createWorkerThreadCodeEngine } from './src/adapter/node/index.ts';
const engine = createWorkerThreadCodeEngine({ idleWorkers: 2 }); console.log((await runCode('return 1 + 1', { engine })).value);`;
    // With flags a worker refuses (--input-type, a V8 flag): the worker starts without them.
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 30_000 });
    expect(output.trim()).toBe('2');
  });
});
