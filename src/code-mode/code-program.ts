// Why this file is long (STYLE.md): it is one program's lifecycle on an engine (start, steps, observation, pending
// calls, the approval journal, cleanup); the pieces are one state machine whose transitions must be read together.
import type { Artifact } from '../content/artifact.ts';
import { CleanupError, isControlError } from '../error/control-errors.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { ToolError } from '../tool/tool-error.ts';
import { abortReason } from '../util/abort.ts';
import { isPlainObject } from '../util/json.ts';
import { Semaphore } from '../util/semaphore.ts';
import { APPROX_BYTES_PER_TOKEN, truncateMiddle, utf8Length } from '../util/truncate.ts';
import type { CodeCatalog, CodeCatalogEntry } from './code-catalog.ts';
import type { CodeEngine, CodeEngineHost, CodeEngineProgram, CodeEngineStep } from './code-engine.ts';
import type { CodeLimits } from './code-limits.ts';
import { CodeLimitError } from './code-limit-error.ts';
import { ProgramOutput } from './program-output.ts';
import { sourceKind, stripTypes } from './prepare-source.ts';
import { CodeReplayError, CodeSuspension } from './code-replay.ts';
import type { CodeJournal, CodeReplay } from './code-replay.ts';

/** Makes one tool call for a program (through the run's executor, or `runCode`'s broker). */
export type CodeToolDispatch = (entry: CodeCatalogEntry, args: Record<string, unknown>, callNumber: number) => Promise<ToolCallResult>;

/** How a program ended. */
export type CodeOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | { readonly status: 'error'; readonly error: string }
  | { readonly status: 'terminated' }
  | { readonly status: 'failed'; readonly error: unknown };

/** What starting a program needs. */
export interface CodeProgramOptions {
  readonly engine: CodeEngine;
  /** The program: JavaScript, or TypeScript (types are stripped when it does not parse as JavaScript). */
  readonly source: string;
  readonly catalog: CodeCatalog;
  readonly limits: CodeLimits;
  readonly dispatch: CodeToolDispatch;
  /** The program's `input` global (must be JSON). */
  readonly input?: unknown;
  /** Stops the program with the abort reason (cancellation, deadline). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Journals the program (seeded random numbers, a reproducible clock, every
   * call and delivery) so that it can suspend for approval and be replayed.
   */
  readonly replayable?: boolean | undefined;
  /** Replays a suspended program from its journal up to the suspended call, then continues live. */
  readonly replay?: CodeReplay | undefined;
}

/** How often a program's steps give the host's event loop a turn (docs/code-mode.md, "Stopping programs"). */
const TASK_EVERY_MS = 8;
const TASK_EVERY_STEPS = 64;

const LIMIT_MESSAGES = {
  cpu: 'code-mode program exceeded its CPU limit',
  wall: 'code-mode program timed out',
  memory: 'code-mode program exceeded its memory limit',
  stack: 'code-mode program exceeded its stack limit',
} as const;

/**
 * One running program, engine-independent: it drives the engine's steps,
 * brokers the program's tool calls (budget, concurrency, pending limit),
 * collects output, and enforces the output limit, the wall-clock lifetime and
 * the abort signal. The engine enforces memory, stack and CPU.
 *
 * `done` settles exactly once with the outcome (it never rejects); the
 * engine's context is disposed by then. Tool calls still running when a
 * program is stopped are left to finish (`settled` waits for them); their
 * results are dropped.
 */
export class CodeProgram {
  /** The outcome, once the program has ended and its context is released. */
  readonly done: Promise<CodeOutcome>;
  readonly #options: CodeProgramOptions;
  readonly #output = new ProgramOutput();
  readonly #artifacts: Artifact[] = [];
  readonly #slots: Semaphore;
  readonly #idle: Array<() => void> = [];
  #engineProgram: CodeEngineProgram | undefined;
  #outputBytes = 0;
  #calls = 0;
  #inflight = 0;
  #inflightBytes = 0;
  #stopRequested = false;
  #exited: { value: string | undefined } | undefined;
  #failure: unknown;
  #finished = false;
  #wake: (() => void) | undefined;
  #wallTimer: ReturnType<typeof setTimeout> | undefined;
  #woken = false;
  #lastTask = performance.now();
  #stepsSinceTask = 0;
  /** Engine steps completed (deliveries are journaled against it). */
  #steps = 0;
  #stepping = false;
  /** The journal of a replayable program. */
  #journal: { seed: number; clock: number; calls: CodeJournal['calls']; deliveries: CodeJournal['deliveries']; suspended?: { id: number } } | undefined;
  /** While replaying: the deliveries still to hand over, in order. */
  #replaying: { replay: CodeReplay; next: number } | undefined;
  /** The step count when the program suspended (later deliveries are journaled at it). */
  #suspendedAt: number | undefined;

  private constructor(options: CodeProgramOptions) {
    this.#options = options;
    this.#slots = new Semaphore(options.limits.concurrency);
    if (options.replay) {
      const { journal } = options.replay;
      this.#journal = { seed: journal.seed, clock: journal.clock, calls: [...journal.calls], deliveries: [...journal.deliveries] };
      this.#replaying = { replay: options.replay, next: 0 };
    } else if (options.replayable) {
      this.#journal = { seed: Math.floor(Math.random() * 2 ** 32), clock: Date.now(), calls: [], deliveries: [] };
    }
    this.done = this.#run();
  }

  /** The journal of a replayable program (JSON), as it stands. */
  journal(): CodeJournal | undefined {
    const journal = this.#journal;
    if (!journal) return undefined;
    return { version: 1, seed: journal.seed, clock: journal.clock, calls: [...journal.calls], deliveries: [...journal.deliveries], ...(journal.suspended ? { suspended: journal.suspended } : {}) };
  }

  /** Starts a program. */
  static start(options: CodeProgramOptions): CodeProgram {
    return new CodeProgram(options);
  }

  /** The program's source as it was given. */
  get source(): string {
    return this.#options.source;
  }

  /** Whether the program has ended. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Output written since the previous call. */
  drainOutput(): string {
    return this.#output.drain();
  }

  /** Artifacts produced by the program's tool calls since the previous call. */
  drainArtifacts(): Artifact[] {
    return this.#artifacts.splice(0);
  }

  /** Stops the program; it ends `terminated` unless it already ended. */
  stop(): void {
    if (this.#finished) return;
    this.#stopRequested = true;
    this.#signal();
  }

  /** Stops the program with a failure (a limit, cancellation). */
  fail(error: unknown): void {
    if (this.#finished || this.#failure !== undefined) return;
    this.#failure = error;
    this.#signal();
  }

  /** Waits until no tool call of the program is running; false when `timeoutMs` passed first. */
  async settled(timeoutMs: number): Promise<boolean> {
    if (this.#inflight === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<boolean>((resolve) => this.#idle.push(() => resolve(true)));
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(): Promise<CodeOutcome> {
    const { signal } = this.#options;
    const onAbort = () => this.fail(abortReason(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) return { status: 'failed', error: abortReason(signal) };
      await this.#options.engine.ready();
      const source = this.#options.source;
      let step = await this.#start(source);
      if (step.state === 'threw' && step.error.startsWith('SyntaxError')) {
        // Nothing ran: a parse error. If it is TypeScript, strip the types and start again.
        clearTimeout(this.#wallTimer);
        const stripped = await stripTypes(source);
        if (stripped !== undefined) {
          this.#engineProgram!.dispose();
          step = await this.#start(stripped);
        }
      }
      for (;;) {
        this.#steps++;
        const outcome = this.#outcomeOf(step);
        if (outcome) return outcome;
        if (!this.#deliverReplayed()) await this.#nextWake();
        await this.#breathe();
        this.#stepping = true;
        step = await this.#engineProgram!.step();
        this.#stepping = false;
      }
    } catch (error) {
      return { status: 'failed', error };
    } finally {
      this.#finished = true;
      clearTimeout(this.#wallTimer);
      signal?.removeEventListener('abort', onAbort);
      this.#engineProgram?.dispose();
    }
  }

  /**
   * Steps that follow tool results run from promise callbacks, which never let the host's event loop turn:
   * a program whose calls answer at once would keep timers, I/O and other requests waiting for as long as it
   * runs. Every few milliseconds (or steps, where the clock stands still during CPU work) it waits for a task.
   */
  async #breathe(): Promise<void> {
    this.#stepsSinceTask++;
    if (this.#stepsSinceTask < TASK_EVERY_STEPS && performance.now() - this.#lastTask < TASK_EVERY_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.#stepsSinceTask = 0;
    this.#lastTask = performance.now();
  }

  async #start(source: string): Promise<CodeEngineStep> {
    const { limits } = this.#options;
    // The lifetime counts from when the program starts, not from loading the engine or the TypeScript stripper.
    clearTimeout(this.#wallTimer);
    this.#wallTimer = setTimeout(() => this.fail(new CodeLimitError('wall', LIMIT_MESSAGES.wall)), limits.wallMs);
    this.#engineProgram = await this.#options.engine.start({
      source,
      kind: sourceKind(source),
      tools: this.#options.catalog.entries,
      input: this.#options.input === undefined ? undefined : JSON.stringify(this.#options.input),
      limits,
      wallDeadline: Date.now() + limits.wallMs,
      host: this.#host(),
      ...(this.#journal ? { determinism: { seed: this.#journal.seed, clock: this.#journal.clock } } : {}),
    });
    return this.#engineProgram.step();
  }

  /**
   * While replaying, hands over the journaled deliveries due before this step
   * (those that arrived after as many steps the first time); true when it
   * delivered any. Replaying ends with the last journaled delivery.
   */
  #deliverReplayed(): boolean {
    const replaying = this.#replaying;
    if (!replaying || !this.#engineProgram) return false;
    const { deliveries } = replaying.replay.journal;
    let delivered = false;
    while (replaying.next < deliveries.length && deliveries[replaying.next]!.at <= this.#steps) {
      const entry = deliveries[replaying.next++]!;
      this.#engineProgram.deliver(entry.id, entry.ok, entry.payload ?? undefined);
      this.#settleReplayed();
      delivered = true;
    }
    if (replaying.next >= deliveries.length && replaying.replay.journal.suspended === undefined) this.#replaying = undefined;
    return delivered;
  }

  /** A replayed call got its journaled result: it is no longer in flight. */
  #settleReplayed(): void {
    this.#inflight--;
    if (this.#inflight === 0) this.#idle.splice(0).forEach((resolve) => resolve());
  }

  #outcomeOf(step: CodeEngineStep): CodeOutcome | undefined {
    if (this.#failure !== undefined) return { status: 'failed', error: this.#failure };
    if (this.#stopRequested) return { status: 'terminated' };
    if (this.#exited) return this.#completed(this.#exited.value);
    switch (step.state) {
      case 'waiting':
        return undefined;
      case 'stopped':
        return step.reason === 'host'
          ? { status: 'terminated' }
          : { status: 'failed', error: new CodeLimitError(step.reason, LIMIT_MESSAGES[step.reason]) };
      case 'returned':
        return this.#inflight > 0 ? undefined : this.#completed(step.value);
      case 'threw':
        return this.#inflight > 0 ? undefined : { status: 'error', error: this.#errorText(step.error) };
    }
  }

  #completed(json: string | undefined): CodeOutcome {
    if (json !== undefined && !this.#countOutput(json)) return { status: 'failed', error: this.#failure };
    return { status: 'completed', value: json === undefined ? undefined : JSON.parse(json) };
  }

  /**
   * The program's error as the model sees it: error text counts as output, so past what is left of the output
   * budget it is cut in the middle, as an observation cuts output.
   */
  #errorText(text: string): string {
    const left = Math.max(0, this.#options.limits.outputBytes - this.#outputBytes);
    const bytes = utf8Length(text);
    this.#outputBytes += Math.min(bytes, left);
    // The marker (…N tokens truncated…) takes up to 32 bytes of what is left.
    return bytes <= left ? text : truncateMiddle(text, Math.max(1, Math.floor((left - 32) / APPROX_BYTES_PER_TOKEN))).text;
  }

  /** Adds to the output budget; false (and the program failed) past the limit. */
  #countOutput(text: string, separator = 0): boolean {
    this.#outputBytes += utf8Length(text) + separator;
    if (this.#outputBytes <= this.#options.limits.outputBytes) return true;
    this.fail(new CodeLimitError('output', 'code-mode output exceeded the limit'));
    return false;
  }

  #host(): CodeEngineHost {
    return {
      call: (id, name, args) => this.#call(id, name, args),
      text: (text) => {
        if (this.#finished || this.#failure !== undefined) return;
        // Each piece also costs the newline that joins it, so a storm of empty pieces still reaches the limit.
        if (this.#countOutput(text, 1)) this.#output.push(text);
      },
      exit: (value) => {
        if (this.#finished || this.#exited) return;
        this.#exited = { value };
        this.#signal();
      },
      shouldStop: () => this.#stopRequested || this.#exited !== undefined || this.#failure !== undefined,
    };
  }

  #call(id: number, name: string, args: string | undefined): string | undefined {
    const { limits, catalog } = this.#options;
    if (this.#finished || this.#exited || this.#stopRequested || this.#failure !== undefined) return 'Code-mode program is no longer active';
    this.#calls++;
    if (this.#calls > limits.toolCalls) return 'Code-mode tool call budget exceeded';
    const entry = catalog.resolve(name);
    if (!entry) return `Tool is not available in code mode: ${name}`;
    let parsed: unknown = {};
    try {
      if (args !== undefined) parsed = parseArguments(args);
    } catch {
      parsed = undefined;
    }
    if (!isPlainObject(parsed)) return 'Tool arguments must be an object';
    if (this.#inflight >= limits.pendingCalls) {
      const error = new CodeLimitError('pendingCalls', 'Code-mode program exceeded the pending tool-call limit');
      this.fail(error);
      return error.message;
    }
    const replayed = this.#replayCall(id, name, args);
    if (replayed === 'replayed') return undefined;
    if (replayed !== undefined) return replayed;
    // The host holds the arguments of every call in flight: together they stay within the program's memory.
    const size = args?.length ?? 0;
    if (this.#inflightBytes + size > limits.memoryBytes) return 'Code-mode tool arguments in flight exceed the program memory limit';
    this.#inflight++;
    this.#inflightBytes += size;
    const callArgs = parsed;
    this.#slots
      .run(() => (this.#finished ? undefined : this.#options.dispatch(entry, callArgs, id)))
      .then(
        (result) => this.#answer(id, result),
        (error: unknown) => this.#answerFailure(id, error),
      )
      .finally(() => {
        this.#inflight--;
        this.#inflightBytes -= size;
        if (this.#inflight === 0) this.#idle.splice(0).forEach((resolve) => resolve());
        this.#signal();
      });
    return undefined;
  }

  /**
   * A call while replaying: one the journal holds must be the same call
   * (`replayed`: its result comes from the journal), else the program cannot
   * be replayed (it fails with `CodeReplayError`); the suspended call is
   * answered with the decision (undefined: run it live, or a denial). Calls
   * past the journal run live. Also journals live calls.
   */
  #replayCall(id: number, name: string, args: string | undefined): 'replayed' | string | undefined {
    const journal = this.#journal;
    if (!journal) return undefined;
    const replaying = this.#replaying;
    const recorded = replaying?.replay.journal.calls.find((call) => call.id === id);
    if (replaying && recorded) {
      if (recorded.name !== name || recorded.args !== (args ?? null)) {
        const error = new CodeReplayError(
          `The program could not be replayed after the approval: its call ${id} was ${recorded.name}(${(recorded.args ?? '').slice(0, 200)}) and is now ${name}(${(args ?? '').slice(0, 200)})`,
        );
        this.fail(error);
        return error.message;
      }
      const suspended = replaying.replay.journal.suspended;
      if (suspended?.id === id) {
        // Past the suspended call the program runs live; its journal keeps growing for a later suspension.
        const { suspended: _suspended, ...rest } = replaying.replay.journal;
        this.#replaying = replaying.next >= rest.deliveries.length ? undefined : { replay: { ...replaying.replay, journal: rest }, next: replaying.next };
        delete journal.suspended;
        if (!replaying.replay.approved) {
          journal.deliveries.push({ at: this.#steps, id, ok: false, payload: replaying.replay.denial });
          queueMicrotask(() => this.#engineProgram?.deliver(id, false, replaying.replay.denial));
          this.#inflight++;
          queueMicrotask(() => {
            this.#settleReplayed();
            this.#signal();
          });
          return 'replayed';
        }
        this.#approvedCall = id;
        return undefined;
      }
      this.#inflight++;
      return 'replayed';
    }
    journal.calls.push({ id, name, args: args ?? null });
    return undefined;
  }

  /** The suspended call a replay was approved to run (the executor runs it without asking again). */
  #approvedCall: number | undefined;

  /** Whether call `id` is the approved call of a replay. */
  isApproved(id: number): boolean {
    return this.#approvedCall === id;
  }

  #journalDelivery(id: number, ok: boolean, payload: string | undefined): void {
    if (!this.#journal) return;
    // A delivery that arrives while a step runs reaches the program with the next one.
    this.#journal.deliveries.push({ at: this.#suspendedAt ?? this.#steps + (this.#stepping ? 1 : 0), id, ok, payload: payload ?? null });
  }

  #answer(id: number, result: ToolCallResult | undefined): void {
    if (!result) return;
    this.#artifacts.push(...result.artifacts);
    let ok = result.status !== 'error';
    let payload: string | undefined = ok ? undefined : result.content;
    if (ok) {
      try {
        payload = result.value === undefined ? undefined : JSON.stringify(result.value);
      } catch {
        ok = false;
        payload = 'Tool returned content that cannot be serialized';
      }
    }
    // A suspended program's calls that finish after it stopped are journaled: the replay hands them over.
    if (this.#suspendedAt !== undefined || !this.#finished) this.#journalDelivery(id, ok, payload);
    if (this.#finished || !this.#engineProgram) return;
    this.#engineProgram.deliver(id, ok, payload);
  }

  #answerFailure(id: number, error: unknown): void {
    if (CodeSuspension.isInstance(error) && this.#journal) {
      this.#suspendedAt = this.#steps;
      this.#journal.suspended = { id };
      this.fail(error);
      return;
    }
    if (ToolError.isInstance(error)) {
      if (this.#suspendedAt !== undefined || !this.#finished) this.#journalDelivery(id, false, error.message);
      if (!this.#finished) this.#engineProgram?.deliver(id, false, error.message);
      return;
    }
    this.fail(
      isControlError(error)
        ? error
        : new CleanupError({ errors: [error], message: `Code-mode nested tool dispatch failed: ${(error as Error)?.message ?? String(error)}` }),
    );
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    if (wake) wake();
    else this.#woken = true;
  }

  #nextWake(): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }
}

/**
 * Tool arguments from a program, as JSON text, parsed without any own `__proto__` key at any depth: such a
 * key (a JSON object may carry one) would reach `execute` as a key that a naive merge turns into a
 * prototype. Everything else arrives as the program sent it.
 */
export function parseArguments(text: string): unknown {
  return text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, dropProtoKeys) : JSON.parse(text);
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}
