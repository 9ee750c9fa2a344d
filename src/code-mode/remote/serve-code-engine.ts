import { ConfigurationError } from '../../error/configuration-error.ts';
import { utf8Length } from '../../util/truncate.ts';
import type { CodeEngine, CodeEngineHost, CodeEngineProgram } from '../code-engine.ts';
import { CodeLimitError } from '../code-limit-error.ts';
import type { HostMessage, RemoteError, RemoteEvent, RemoteRequest, WorkerMessage } from './remote-protocol.ts';

/** The worker's side of its channel to the host. */
export interface CodeEngineWorkerPort {
  post(message: WorkerMessage): void;
  listen(listener: (message: HostMessage) => void): void;
}

/**
 * Runs `engine` (an in-thread engine, QuickJS) inside a worker for a
 * {@link createRemoteCodeEngine} host: loads it, answers `ready`, then runs
 * the programs the host starts. A program's requests (tool calls, output,
 * exit) are sent while the step runs (every 64 requests or 1 MiB of
 * arguments) and with its result; the host applies them in order when the
 * step ends. The worker also stops a program locally once its output passes
 * the limit or one step makes more calls than the pending-call limit (the
 * host then fails it with that limit), and refuses calls once one step holds
 * more argument bytes than the program's memory, so nothing a step collects
 * grows without bound.
 */
export function serveCodeEngine(port: CodeEngineWorkerPort, engine: CodeEngine): void {
  const programs = new Map<number, RemoteProgramState>();
  const loaded = engine
    .ready()
    .then(() => warmUp(engine))
    .then(
      () => port.post({ type: 'ready' }),
      (error: unknown) => port.post({ type: 'load-failed', error: remoteError(error) }),
    );
  port.listen((message) => {
    void loaded.then(() => handle(message));
  });

  async function handle(message: HostMessage): Promise<void> {
    switch (message.type) {
      case 'start': {
        const state = new RemoteProgramState(message.request, (events) => port.post({ type: 'events', program: message.program, events }));
        try {
          state.program = await engine.start({ ...message.request, host: state.host });
          programs.set(message.program, state);
          port.post({ type: 'started', program: message.program });
        } catch (error) {
          port.post({ type: 'start-failed', program: message.program, error: remoteError(error) });
        }
        return;
      }
      case 'step': {
        const state = programs.get(message.program);
        if (!state?.program) return;
        for (const delivery of message.deliveries) state.program.deliver(delivery.id, delivery.ok, delivery.payload);
        state.beginStep();
        const started = performance.now();
        const step = await state.program.step();
        const cpuMs = performance.now() - started;
        port.post({ type: 'stepped', program: message.program, step, events: state.takeEvents(), cpuMs });
        return;
      }
      case 'dispose': {
        programs.get(message.program)?.program?.dispose();
        programs.delete(message.program);
        return;
      }
    }
  }
}

/** Requests, or argument bytes, after which a running step sends what it collected. */
const FLUSH_EVENTS = 64;
const FLUSH_BYTES = 1024 * 1024;

/** One program in the worker and the host stand-in that collects its requests. */
class RemoteProgramState {
  program: CodeEngineProgram | undefined;
  readonly host: CodeEngineHost;
  readonly #flush: (events: RemoteEvent[]) => void;
  #events: RemoteEvent[] = [];
  #pendingBytes = 0;
  #stepArgBytes = 0;
  #stepCalls = 0;
  #outputBytes = 0;
  #stopped = false;

  constructor(request: RemoteRequest, flush: (events: RemoteEvent[]) => void) {
    this.#flush = flush;
    const { memoryBytes, outputBytes } = request.limits;
    const callsPerStep = (request.limits.pendingCalls ?? 256) + 1;
    this.host = {
      call: (id, name, args) => {
        if (this.#stopped) return 'Code-mode program is no longer active';
        const size = args?.length ?? 0;
        if (this.#stepArgBytes + size > memoryBytes) return 'Code-mode tool arguments in flight exceed the program memory limit';
        this.#stepArgBytes += size;
        this.#push({ kind: 'call', id, name, args }, size);
        // Past the pending-call limit the host stops the program; stop collecting there.
        if (++this.#stepCalls >= callsPerStep) this.#stopped = true;
        return undefined;
      },
      text: (text) => {
        // Past the output limit the host fails the program; nothing more needs to cross.
        if (this.#outputBytes > outputBytes) return;
        this.#push({ kind: 'text', text }, text.length);
        this.#outputBytes += utf8Length(text) + 1;
        if (this.#outputBytes > outputBytes) this.#stopped = true;
      },
      exit: (value) => {
        this.#push({ kind: 'exit', value }, 0);
        this.#stopped = true;
      },
      shouldStop: () => this.#stopped,
    };
  }

  /** Collects a request; sends the collection while the step runs once it is large enough. */
  #push(event: RemoteEvent, bytes: number): void {
    this.#events.push(event);
    this.#pendingBytes += bytes;
    if (this.#events.length < FLUSH_EVENTS && this.#pendingBytes < FLUSH_BYTES) return;
    this.#flush(this.takeEvents());
  }

  beginStep(): void {
    this.#stepArgBytes = 0;
    this.#stepCalls = 0;
  }

  takeEvents(): RemoteEvent[] {
    const events = this.#events;
    this.#events = [];
    this.#pendingBytes = 0;
    return events;
  }
}

/**
 * Runs one trivial program before the worker reports ready, so the first real one does not pay for compiling
 * the engine's own code (a worker is started ahead of need: at `ready()`, and in the background after one is
 * terminated).
 */
async function warmUp(engine: CodeEngine): Promise<void> {
  const host = { call: () => 'warm-up', text: () => undefined, exit: () => undefined, shouldStop: () => false };
  const limits = { memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024, cpuMs: 1_000, outputBytes: 1_000 };
  const program = await engine.start({ source: 'return [1, 2].includes(2) && "x".indexOf("x") === 0;', kind: 'script', tools: [], input: undefined, limits, wallDeadline: Date.now() + 10_000, host });
  try {
    await program.step();
  } finally {
    program.dispose();
  }
}

function remoteError(error: unknown): RemoteError {
  const message = (error as Error)?.message ?? String(error);
  if (CodeLimitError.isInstance(error)) return { kind: 'limit', message, limit: error.limit };
  if (ConfigurationError.isInstance(error)) return { kind: 'configuration', message };
  return { kind: 'error', message };
}
