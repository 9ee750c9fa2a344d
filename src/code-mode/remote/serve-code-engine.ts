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
 * exit) are collected during each step and sent with its result; the host
 * applies them in order. The worker also stops a program locally once its
 * output passes the limit, and refuses calls once one step holds more
 * argument bytes than the program's memory, so nothing a step collects grows
 * without bound.
 */
export function serveCodeEngine(port: CodeEngineWorkerPort, engine: CodeEngine): void {
  const programs = new Map<number, RemoteProgramState>();
  const loaded = engine.ready().then(
    () => port.post({ type: 'ready' }),
    (error: unknown) => port.post({ type: 'load-failed', error: remoteError(error) }),
  );
  port.listen((message) => {
    void loaded.then(() => handle(message));
  });

  async function handle(message: HostMessage): Promise<void> {
    switch (message.type) {
      case 'start': {
        const state = new RemoteProgramState(message.request);
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

/** One program in the worker and the host stand-in that collects its requests. */
class RemoteProgramState {
  program: CodeEngineProgram | undefined;
  readonly host: CodeEngineHost;
  #events: RemoteEvent[] = [];
  #stepArgBytes = 0;
  #stepCalls = 0;
  #outputBytes = 0;
  #stopped = false;

  constructor(request: RemoteRequest) {
    const { memoryBytes, outputBytes } = request.limits;
    const callsPerStep = (request.limits.pendingCalls ?? 256) + 1;
    this.host = {
      call: (id, name, args) => {
        if (this.#stopped) return 'Code-mode program is no longer active';
        const size = args?.length ?? 0;
        if (this.#stepArgBytes + size > memoryBytes) return 'Code-mode tool arguments in flight exceed the program memory limit';
        this.#stepArgBytes += size;
        this.#events.push({ kind: 'call', id, name, args });
        // Past the pending-call limit the host stops the program; stop collecting there.
        if (++this.#stepCalls >= callsPerStep) this.#stopped = true;
        return undefined;
      },
      text: (text) => {
        // Past the output limit the host fails the program; nothing more needs to cross.
        if (this.#outputBytes > outputBytes) return;
        this.#events.push({ kind: 'text', text });
        this.#outputBytes += utf8Length(text) + 1;
        if (this.#outputBytes > outputBytes) this.#stopped = true;
      },
      exit: (value) => {
        this.#events.push({ kind: 'exit', value });
        this.#stopped = true;
      },
      shouldStop: () => this.#stopped,
    };
  }

  beginStep(): void {
    this.#stepArgBytes = 0;
    this.#stepCalls = 0;
  }

  takeEvents(): RemoteEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }
}

function remoteError(error: unknown): RemoteError {
  const message = (error as Error)?.message ?? String(error);
  if (CodeLimitError.isInstance(error)) return { kind: 'limit', message, limit: error.limit };
  if (ConfigurationError.isInstance(error)) return { kind: 'configuration', message };
  return { kind: 'error', message };
}
