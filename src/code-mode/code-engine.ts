/**
 * The seam between code mode and the interpreter that runs programs. The
 * QuickJS engine ({@link createQuickJsEngine}) runs programs on the caller's
 * thread; a remote engine ({@link createRemoteCodeEngine}) runs that same
 * engine in a worker the host can terminate (`worker_threads` in Node, a Web
 * Worker in browsers), so no program can hold the host's thread.
 *
 * An engine runs each program in a fresh, isolated context and knows nothing
 * about tools: the program's tool calls, output and exit come to the
 * {@link CodeEngineHost}, which code mode implements.
 */
export interface CodeEngine {
  readonly version: 'code-engine-v1';
  /** Loads what the engine needs (once per isolate); rejects with a `ConfigurationError` when it cannot. */
  ready(): Promise<void>;
  /** Prepares one program in a fresh context. Nothing runs until its first `step`. */
  start(request: CodeEngineRequest): Promise<CodeEngineProgram>;
}

/** What an engine needs to start a program. */
export interface CodeEngineRequest {
  /** JavaScript (TypeScript types already removed). */
  readonly source: string;
  /** `script`: the source is the body of an async function; `module`: an ES module whose `run` (or default) export is called. */
  readonly kind: 'script' | 'module';
  /** The catalog, as `tools.<name>` functions and `ALL_TOOLS`. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  /** The program's `input` global as JSON text (`undefined` for none). */
  readonly input: string | undefined;
  /**
   * Per-program resource limits the engine enforces. `outputBytes` bounds what crosses to the host as text:
   * the engine hands over at most `outputBytes + 1` characters of any `text`, return value or error, so the
   * host never copies more than the limit it then enforces.
   */
  readonly limits: { readonly memoryBytes: number; readonly stackBytes: number; readonly cpuMs: number; readonly outputBytes: number };
  /** Epoch milliseconds after which the engine stops the program at its next interrupt check. */
  readonly wallDeadline: number;
  /** Where the program's requests go. */
  readonly host: CodeEngineHost;
  /**
   * Makes the program's clock and random numbers reproducible, so that a
   * replay sees the values the first run saw: `Math.random` is a PRNG seeded
   * with `seed`, and `Date.now()` (and `new Date()`) start at `clock` and
   * advance by 1 ms per reading.
   */
  readonly determinism?: { readonly seed: number; readonly clock: number } | undefined;
}

/**
 * The host side of a program. An engine on the host's thread calls it synchronously from inside the
 * program; a remote engine calls it when a step's requests arrive, in the order the program made them.
 */
export interface CodeEngineHost {
  /**
   * A tool call (`id` unique per program, `args` JSON text). Returns a refusal message, or nothing when
   * accepted. A refused call rejects inside the program with that message (a remote engine delivers the
   * refusal with the next step).
   */
  call(id: number, name: string, args: string | undefined): string | undefined;
  /** Output from `text(value)`, already turned into text. */
  text(text: string): void;
  /** `exit(value)` (value as JSON text). */
  exit(value: string | undefined): void;
  /** Whether the program must stop at the next interrupt check (stop, exit, a limit, cancellation). */
  shouldStop(): boolean;
}

/** One running program inside an engine. */
export interface CodeEngineProgram {
  /** Queues a tool result for the program (`payload`: the JSON value, or the error message). */
  deliver(id: number, ok: boolean, payload: string | undefined): void;
  /**
   * Runs the program until it waits on the host or ends, bounded by the CPU budget. An engine on the host's
   * thread answers synchronously; a remote engine answers with a promise (it never rejects: a worker that
   * had to be terminated is a `stopped` step).
   */
  step(): CodeEngineStep | Promise<CodeEngineStep>;
  /** Releases the context. Never throws; an engine that cannot release cleanly recycles itself. */
  dispose(): void;
}

/** Where a program stands after a step. */
export type CodeEngineStep =
  | { readonly state: 'waiting' }
  | { readonly state: 'returned'; readonly value: string | undefined }
  | { readonly state: 'threw'; readonly error: string }
  | { readonly state: 'stopped'; readonly reason: CodeEngineStopReason };

/** Why an engine stopped a program: the host asked, or a limit it enforces was reached. */
export type CodeEngineStopReason = 'host' | 'cpu' | 'wall' | 'memory' | 'stack';
