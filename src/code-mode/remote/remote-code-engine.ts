import { ConfigurationError } from '../../error/configuration-error.ts';
import type { CodeEngine, CodeEngineHost, CodeEngineProgram, CodeEngineRequest, CodeEngineStep, CodeEngineStopReason } from '../code-engine.ts';
import { CodeLimitError } from '../code-limit-error.ts';
import type { CodeLimitName } from '../code-limit-error.ts';
import type { HostMessage, RemoteDelivery, RemoteError, RemoteEvent, WorkerMessage } from './remote-protocol.ts';

/** A worker running {@link serveCodeEngine}, as the host sees it. */
export interface CodeEngineWorker {
  post(message: HostMessage): void;
  /** Registers the one listener for the worker's messages. */
  onMessage(listener: (message: WorkerMessage) => void): void;
  /** Registers the one listener for the worker failing (an uncaught error, running out of memory, exiting). */
  onFailure(listener: (error: unknown) => void): void;
  /** Stops the worker now, whatever it is running. */
  terminate(): void;
  /** Takes a message the worker sent that has not been delivered yet (Node's `receiveMessageOnPort`), if the runtime can. */
  takePending?(): WorkerMessage | undefined;
  /** Whether the worker keeps the host process alive (Node): only while one of its programs runs a step. */
  keepAlive?(alive: boolean): void;
}

/** Options of {@link createRemoteCodeEngine}. */
export interface RemoteCodeEngineOptions {
  /** Starts one worker (a Node worker thread, a Web Worker) that runs `serveCodeEngine`. */
  spawn: () => CodeEngineWorker;
  /** Idle workers kept loaded for the next program (default 1). */
  idleWorkers?: number | undefined;
  /** What the engine is called in its errors (default `the code-engine worker`). */
  label?: string | undefined;
}

/**
 * Extra time past a program's remaining CPU budget before its worker is terminated: the engine inside the
 * worker stops the program itself at the budget (within an interrupt check, well under a millisecond for
 * ordinary code), and this is its margin. A quarter of the budget plus 15 ms keeps a terminated program
 * within 2 × cpuMs + 50 ms with room for the messages and the termination itself.
 */
export function terminationGraceMs(cpuMs: number): number {
  return Math.min(cpuMs, 4_000) / 4 + 15;
}

/** How often the host checks, while a step runs, whether the program must stop (stop, exit, wall limit, abort). */
const STOP_POLL_MS = 10;

/**
 * A code engine whose programs run in workers the host can terminate, so no
 * program — whatever builtin it calls — can hold the host's thread: each
 * program gets a worker of its own (idle ones are reused), the engine inside
 * the worker enforces the limits as it does on the host's thread, and the
 * host terminates the worker when a step outlives the program's remaining
 * CPU budget plus {@link terminationGraceMs}, or when the program must stop
 * (`stop`, the wall limit, cancellation) while a step is still running. A
 * terminated worker is replaced in the background.
 *
 * `ghostlight/node` (`createWorkerThreadCodeEngine`) and `ghostlight/browser`
 * (`createWebWorkerCodeEngine`) build it over their runtime's workers, and
 * `defaultCodeEngine()` uses them in Node and in browsers.
 */
export function createRemoteCodeEngine(options: RemoteCodeEngineOptions): CodeEngine {
  const pool = new WorkerPool(options);
  return Object.freeze({
    version: 'code-engine-v1' as const,
    ready: () => pool.warm(),
    async start(request: CodeEngineRequest): Promise<CodeEngineProgram> {
      const slot = await pool.acquire();
      try {
        await slot.start(request);
      } catch (error) {
        pool.release(slot);
        throw error;
      }
      return new RemoteProgram(slot, request, pool);
    },
  });
}

/** Loaded workers waiting for a program, and the spawning of new ones. */
class WorkerPool {
  readonly #options: RemoteCodeEngineOptions;
  readonly #idle: WorkerSlot[] = [];
  #spawning: WorkerSlot | undefined;

  constructor(options: RemoteCodeEngineOptions) {
    this.#options = options;
  }

  /** Loads one worker (the first `ready()` waits for it); rejects with a `ConfigurationError` when it cannot load. */
  async warm(): Promise<void> {
    if (this.#idle.length > 0) return;
    const slot = this.#spawning ?? this.#spawn();
    await slot.ready;
  }

  /** An idle worker, the one loading, or a new one (loading it). */
  async acquire(): Promise<WorkerSlot> {
    let idle: WorkerSlot | undefined;
    while ((idle = this.#idle.pop())) if (!idle.dead) return idle;
    const spawning = this.#spawning;
    if (spawning) {
      this.#spawning = undefined;
      await spawning.ready;
      if (!spawning.dead) return spawning;
    }
    const slot = new WorkerSlot(this.#options);
    await slot.ready;
    return slot;
  }

  /** Takes a worker back after its program: kept when healthy and the pool has room, otherwise terminated. */
  release(slot: WorkerSlot): void {
    if (slot.dead) {
      this.replenish();
      return;
    }
    if (this.#idle.length >= (this.#options.idleWorkers ?? 1)) {
      slot.terminate();
      return;
    }
    slot.keepAlive(false);
    this.#idle.push(slot);
  }

  /** Starts loading a replacement in the background when no worker is idle. */
  replenish(): void {
    if (this.#idle.length > 0 || this.#spawning || (this.#options.idleWorkers ?? 1) === 0) return;
    const slot = this.#spawn();
    slot.ready.then(
      () => {
        if (this.#spawning !== slot) return;
        this.#spawning = undefined;
        this.release(slot);
      },
      () => {
        if (this.#spawning === slot) this.#spawning = undefined;
      },
    );
  }

  #spawn(): WorkerSlot {
    const slot = new WorkerSlot(this.#options);
    this.#spawning = slot;
    slot.ready.catch(() => {
      if (this.#spawning === slot) this.#spawning = undefined;
    });
    return slot;
  }
}

/** One worker and the one message exchange it has in flight. */
class WorkerSlot {
  readonly ready: Promise<void>;
  dead = false;
  readonly #worker: CodeEngineWorker;
  #waiting: ((message: WorkerMessage | undefined, failure?: unknown) => void) | undefined;
  #programs = 0;
  /** Where a running step's streamed requests go. */
  onEvents: ((events: readonly RemoteEvent[]) => void) | undefined;

  constructor(options: RemoteCodeEngineOptions) {
    const label = options.label ?? 'the code-engine worker';
    let worker: CodeEngineWorker;
    try {
      worker = options.spawn();
    } catch (error) {
      this.dead = true;
      this.#worker = { post() {}, onMessage() {}, onFailure() {}, terminate() {} };
      this.ready = Promise.reject(loadError(label, error));
      this.ready.catch(() => undefined);
      return;
    }
    this.#worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#waiting = (message, failure) => {
        if (message?.type === 'ready') resolve();
        else {
          this.terminate();
          reject(loadError(label, message?.type === 'load-failed' ? message.error.message : failure));
        }
      };
    });
    this.ready.catch(() => undefined);
    worker.onMessage((message) => this.#receive(message));
    worker.onFailure((error) => {
      this.dead = true;
      this.#receive(undefined, error ?? new Error(`${label} stopped`));
    });
  }

  /** Starts a program in the worker; rejects with what the worker's engine threw. */
  async start(request: CodeEngineRequest): Promise<void> {
    const program = ++this.#programs;
    const remote = {
      source: request.source,
      kind: request.kind,
      tools: request.tools.map(({ name, description }) => ({ name, description })),
      input: request.input,
      limits: { ...request.limits },
      wallDeadline: request.wallDeadline,
      ...(request.determinism ? { determinism: { seed: request.determinism.seed, clock: request.determinism.clock } } : {}),
    };
    const reply = await this.exchange({ type: 'start', program, request: remote });
    if (reply?.type === 'started') return;
    if (reply?.type === 'start-failed') throw localError(reply.error);
    throw new CodeLimitError('memory', 'code-mode program exceeded its memory limit');
  }

  get program(): number {
    return this.#programs;
  }

  /** Sends a message and resolves with the answer (`undefined` when the worker failed first). */
  exchange(message: HostMessage): Promise<WorkerMessage | undefined> {
    return new Promise((resolve) => {
      this.#waiting = (reply) => resolve(reply);
      if (this.dead) {
        this.#waiting = undefined;
        resolve(undefined);
        return;
      }
      this.#worker.post(message);
    });
  }

  /** Delivers a reply the worker already sent but the host has not received yet (Node only). */
  drain(): boolean {
    const pending = this.#worker.takePending?.();
    if (!pending) return false;
    this.#receive(pending);
    return true;
  }

  post(message: HostMessage): void {
    if (!this.dead) this.#worker.post(message);
  }

  keepAlive(alive: boolean): void {
    if (!this.dead) this.#worker.keepAlive?.(alive);
  }

  terminate(): void {
    this.dead = true;
    try {
      this.#worker.terminate();
    } catch {
      // Already gone.
    }
    this.#receive(undefined);
  }

  #receive(message: WorkerMessage | undefined, failure?: unknown): void {
    if (message?.type === 'events') {
      this.onEvents?.(message.events);
      return;
    }
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(message, failure);
  }
}

/** One program in a worker; its `step` is a message exchange bounded by a termination deadline. */
class RemoteProgram implements CodeEngineProgram {
  readonly #slot: WorkerSlot;
  readonly #pool: WorkerPool;
  readonly #host: CodeEngineHost;
  readonly #cpuMs: number;
  readonly #id: number;
  readonly #deliveries: RemoteDelivery[] = [];
  #cpuUsed = 0;
  #stopReason: CodeEngineStopReason | undefined;
  #disposed = false;

  constructor(slot: WorkerSlot, request: CodeEngineRequest, pool: WorkerPool) {
    this.#slot = slot;
    this.#pool = pool;
    this.#host = request.host;
    this.#cpuMs = request.limits.cpuMs;
    this.#id = slot.program;
  }

  deliver(id: number, ok: boolean, payload: string | undefined): void {
    this.#deliveries.push({ id, ok, payload });
  }

  async step(): Promise<CodeEngineStep> {
    if (this.#stopReason || this.#disposed || this.#slot.dead) return { state: 'stopped', reason: this.#stopReason ?? 'host' };
    this.#slot.keepAlive(true);
    // Requests arrive while the step runs (streamed) and with its result; the host applies them when the step
    // ends, as an engine on the host's thread would have seen them by then, and applies what arrived even when
    // the worker had to be terminated (a pending-call or output limit then explains the stop).
    const streamed: RemoteEvent[] = [];
    this.#slot.onEvents = (events) => streamed.push(...events);
    try {
      for (;;) {
        const reply = await this.#exchange();
        this.#apply(streamed.splice(0));
        if (!reply) return { state: 'stopped', reason: this.#stopReason ?? 'memory' };
        this.#cpuUsed += reply.cpuMs;
        this.#apply(reply.events);
        if (reply.step.state !== 'waiting' || this.#deliveries.length === 0 || this.#host.shouldStop()) return reply.step;
      }
    } finally {
      this.#slot.onEvents = undefined;
      if (!this.#slot.dead) this.#slot.keepAlive(false);
    }
  }

  #apply(events: readonly RemoteEvent[]): void {
    for (const event of events) {
      if (event.kind === 'text') this.#host.text(event.text);
      else if (event.kind === 'exit') this.#host.exit(event.value);
      else {
        // A call the host refuses rejects inside the program with the next step.
        const refusal = this.#host.call(event.id, event.name, event.args);
        if (refusal !== undefined) this.#deliveries.push({ id: event.id, ok: false, payload: refusal });
      }
    }
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#slot.post({ type: 'dispose', program: this.#id });
    this.#pool.release(this.#slot);
  }

  /** One step in the worker, terminated past its deadline or when the host must stop it. */
  async #exchange(): Promise<Extract<WorkerMessage, { type: 'stepped' }> | undefined> {
    const slot = this.#slot;
    const deliveries = this.#deliveries.splice(0);
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const kill = (reason: CodeEngineStopReason) => {
      // A reply already sent but not yet received wins over the deadline.
      if (slot.drain()) return;
      this.#stopReason ??= reason;
      slot.terminate();
    };
    const budget = Math.max(0, this.#cpuMs - this.#cpuUsed) + terminationGraceMs(this.#cpuMs);
    deadline = setTimeout(() => kill('cpu'), budget);
    poll = setInterval(() => {
      if (this.#host.shouldStop()) kill('host');
    }, STOP_POLL_MS);
    try {
      const reply = await slot.exchange({ type: 'step', program: this.#id, deliveries });
      return reply?.type === 'stepped' ? reply : undefined;
    } finally {
      clearTimeout(deadline);
      clearInterval(poll);
    }
  }
}

function loadError(label: string, cause: unknown): ConfigurationError {
  const detail = typeof cause === 'string' ? cause : ((cause as Error)?.message ?? String(cause));
  return new ConfigurationError(
    `${label} could not start (${detail}); a bundler must emit the worker script next to the module that starts it, or pass createQuickJsEngine(...) to run programs on this thread`,
    { cause },
  );
}

function localError(error: RemoteError): Error {
  if (error.kind === 'limit') return new CodeLimitError((error.limit ?? 'memory') as CodeLimitName, error.message);
  if (error.kind === 'configuration') return new ConfigurationError(error.message);
  return new Error(error.message);
}
