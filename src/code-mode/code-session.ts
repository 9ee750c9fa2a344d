import type { Artifact } from '../content/artifact.ts';
import { CleanupError } from '../error/control-errors.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { ToolError } from '../tool/tool-error.ts';
import { truncateMiddle, utf8Length } from '../util/truncate.ts';
import type { CodeCatalog, CodeCatalogEntry } from './code-catalog.ts';
import type { CodeEngine } from './code-engine.ts';
import type { CodeLimits } from './code-limits.ts';
import { CodeLimitError } from './code-limit-error.ts';
import { CodeProgram } from './code-program.ts';
import { CodeSuspension } from './code-replay.ts';
import type { CodeReplay } from './code-replay.ts';
import type { CodeOutcome } from './code-program.ts';

/** Output tokens an observation returns unless the model asks otherwise. */
export const DEFAULT_OBSERVATION_TOKENS = 10_000;
/** The most output tokens one observation may return. */
export const MAX_OBSERVATION_TOKENS = 1_048_576;

/** What `exec`, `wait` and `stop` return to the model (`value`/`error` only when set). */
export interface CodeObservation {
  readonly status: 'completed' | 'error' | 'still_working' | 'terminated';
  /** Output written since the previous observation. */
  readonly output: string;
  /** The program's return (or `exit`) value. */
  readonly value?: unknown;
  /** The program's error (`status: "error"`). */
  readonly error?: string;
}

/** Options of one control call. */
export interface CodeControlOptions {
  /** The most output tokens to return (1 to 1,048,576; default 10,000). */
  readonly maxOutputTokens?: number | undefined;
  /** `exec` only: replay a program that suspended for approval, then continue it. */
  readonly replay?: CodeReplay | undefined;
}

/** What a session needs. */
export interface CodeSessionOptions {
  readonly engine: CodeEngine;
  readonly catalog: CodeCatalog;
  readonly limits: CodeLimits;
  /** Makes one tool call for a program started by the `exec` call `parentToolCallId`. */
  readonly dispatch: (
    entry: CodeCatalogEntry,
    args: Record<string, unknown>,
    call: { parentToolCallId: string; id: string; operation: Operation | undefined; callNumber: number; approved: () => boolean },
  ) => Promise<ToolCallResult>;
  /** Journal programs so that they can suspend for approval and be replayed (some catalog tool can need approval). */
  readonly replayable?: boolean | undefined;
  /** The run's signal: aborting it stops the active program. */
  readonly signal?: AbortSignal;
  /** The run's agent operation: each program is a `code_program` operation inside it, the parent of its tool calls. */
  readonly operation?: Operation | undefined;
}

/**
 * The code-mode state of one run: at most one active program, one control
 * call (`exec`, `wait`, `stop`) at a time, a fresh engine context per `exec`,
 * observations that return only new output, and a `close` the run calls on
 * every outcome.
 */
export class CodeSession {
  readonly #options: CodeSessionOptions;
  readonly #unsettled = new Set<CodeProgram>();
  #current: CodeProgram | undefined;
  #programs = 0;
  #controlActive = false;
  #closed = false;

  constructor(options: CodeSessionOptions) {
    this.#options = options;
  }

  /** Starts a program and observes it. */
  exec(source: string, parentToolCallId: string, options: CodeControlOptions = {}): Promise<CodeObservation & { artifacts: Artifact[] }> {
    return this.#control(async () => {
      const { limits } = this.#options;
      if (this.#current && !this.#current.finished) {
        throw new ToolError('Wait for or stop the active JavaScript program before starting another');
      }
      this.#current = undefined;
      this.#programs++;
      if (this.#programs > limits.programs) throw new CodeLimitError('programs', 'code-mode program limit exceeded');
      if (utf8Length(source) > limits.sourceBytes) throw new CodeLimitError('source', 'code-mode source exceeds the limit');
      const programNumber = this.#programs;
      const operation = this.#options.operation?.start('code_program', { programId: parentToolCallId, program: programNumber }, { input: source });
      const program: CodeProgram = CodeProgram.start({
        engine: this.#options.engine,
        source,
        catalog: this.#options.catalog,
        limits,
        signal: this.#options.signal,
        replayable: this.#options.replayable,
        replay: options.replay,
        dispatch: (entry, args, callNumber) =>
          this.#options.dispatch(entry, args, {
            parentToolCallId,
            id: `${parentToolCallId}-code-${programNumber}-${callNumber}`,
            operation,
            callNumber,
            approved: () => program.isApproved(callNumber),
          }),
      });
      if (operation) {
        // The program's operation ends once the program has ended and its tool calls have settled.
        void program.done.then(async (outcome) => {
          await program.settled(limits.cleanupMs);
          operation.finish({ status: outcome.status }, outcome.status === 'failed' ? outcome.error : outcome.status === 'error' ? { name: 'CodeProgramError' } : undefined);
        });
      }
      this.#current = program;
      this.#unsettled.add(program);
      return this.#observe(program, limits.observeMs, options);
    });
  }

  /** Observes the active program again. */
  wait(options: CodeControlOptions = {}): Promise<CodeObservation & { artifacts: Artifact[] }> {
    return this.#control(() => this.#observe(this.#active(), this.#options.limits.observeMs, options));
  }

  /** Stops the active program and returns its remaining output. */
  stop(options: CodeControlOptions = {}): Promise<CodeObservation & { artifacts: Artifact[] }> {
    return this.#control(() => {
      const program = this.#active();
      program.stop();
      return this.#observe(program, Number.POSITIVE_INFINITY, options);
    });
  }

  /**
   * Stops the active program and waits (up to `cleanupMs`) for tool calls
   * any program left running. Idempotent; throws `CleanupError` when calls
   * are still running at the end of the wait.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#current?.stop();
    const programs = [...this.#unsettled];
    await Promise.all(programs.map((program) => program.done));
    const settled = await Promise.all(programs.map((program) => program.settled(this.#options.limits.cleanupMs)));
    if (settled.includes(false)) throw new CleanupError({ errors: [], message: 'Code-mode nested tool cleanup timed out' });
  }

  #active(): CodeProgram {
    if (!this.#current) throw new ToolError('There is no active JavaScript program');
    return this.#current;
  }

  async #control<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new ToolError('Code-mode session is closed');
    if (this.#controlActive) throw new ToolError('a code-mode control call is already active');
    this.#controlActive = true;
    try {
      return await operation();
    } finally {
      this.#controlActive = false;
    }
  }

  async #observe(program: CodeProgram, windowMs: number, options: CodeControlOptions): Promise<CodeObservation & { artifacts: Artifact[] }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const window = Number.isFinite(windowMs)
      ? new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), windowMs)))
      : new Promise<undefined>(() => {});
    const outcome: CodeOutcome | undefined = await Promise.race([program.done, window]).finally(() => clearTimeout(timer));
    const tokens = outputTokens(options.maxOutputTokens);
    const output = truncateMiddle(program.drainOutput(), tokens).text;
    const artifacts = program.drainArtifacts();
    if (!outcome) return { status: 'still_working', output, artifacts };
    if (this.#current === program) this.#current = undefined;
    if (program.finished) void program.settled(0).then((idle) => idle && this.#unsettled.delete(program));
    switch (outcome.status) {
      case 'completed':
        return outcome.value === undefined ? { status: 'completed', output, artifacts } : { status: 'completed', output, value: outcome.value, artifacts };
      case 'error':
        // The error is output too: the same token budget applies to it.
        return { status: 'error', output, error: truncateMiddle(outcome.error, tokens).text, artifacts };
      case 'terminated':
        return { status: 'terminated', output, artifacts };
      case 'failed':
        if (CodeSuspension.isInstance(outcome.error)) {
          // The calls still running finish first: their results go into the journal the replay hands over.
          await program.settled(this.#options.limits.cleanupMs);
          outcome.error.journal = program.journal();
          outcome.error.source = program.source;
        }
        throw outcome.error;
    }
  }
}

function outputTokens(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_OBSERVATION_TOKENS;
  return Math.min(Math.max(1, Math.trunc(requested)), MAX_OBSERVATION_TOKENS);
}
