import { CancelledError, DeadlineExceededError, InvocationError, cancelledMessage } from '../error/control-errors.ts';
import type { GhostlightEvent } from '../events/events.ts';
import type { RunStream } from './agent.ts';
import { interject } from './interjections.ts';
import type { InterjectionInput, InterjectionReply, InterjectOptions } from './interjections.ts';
import type { AskOptions } from './invocation.ts';
import type { Run } from './run.ts';
import type { RunExecution } from './run-execution.ts';
import { runExecutions } from './run-streams.ts';

/** Where an execution is: not started yet, running its loop, or finished (its Run is settled). */
export type ExecutionState = 'pending' | 'running' | 'finished';

/** Options of `agent.start`: the ask options, and a consumer of the run's events. */
export interface StartOptions extends AskOptions {
  /**
   * Called with every event in order, one at a time (awaited). If it throws,
   * the execution is cancelled and `wait` rejects with that error.
   */
  onEvent?: ((event: GhostlightEvent) => void | Promise<void>) | undefined;
}

/** Options of {@link Execution.wait} and {@link Execution.close}. */
export interface ExecutionWaitOptions {
  /** An absolute time (Date, epoch ms or ISO-8601 text) to stop waiting at: `DeadlineExceededError`; the run goes on. */
  deadline?: Date | number | string | undefined;
}

/** The message of the `DeadlineExceededError` a wait ends with. */
export const WAIT_DEADLINE_MESSAGE = 'The execution did not finish before the wait deadline';

/**
 * A run started in the background with `agent.start` (SPEC A18): its state,
 * its events, and the ways to talk to it while it works: `interject`,
 * `cancel`, `wait`, `close`. Disposable: `await using execution =
 * agent.start(…)` closes it at the end of the block.
 */
export class Execution<TOutput = unknown> implements RunStream<TOutput>, AsyncDisposable {
  readonly runId: string;
  /** Settles with the finished run (rejects only for bad configuration). */
  readonly run: Promise<Run<TOutput>>;
  readonly #execution: RunExecution;
  readonly #controller: AbortController;
  readonly #consumed: Promise<void>;
  #finished = false;
  #consumerError: { error: unknown } | undefined;

  /** @internal Made by `agent.start`. */
  constructor(execution: RunExecution, controller: AbortController, onEvent: StartOptions['onEvent']) {
    this.#execution = execution;
    this.#controller = controller;
    this.runId = execution.invocation.runId;
    runExecutions.set(this, execution);
    this.run = execution.execute().finally(() => {
      this.#finished = true;
    }) as Promise<Run<TOutput>>;
    this.run.catch(() => undefined);
    this.#consumed = onEvent ? this.#consume(onEvent) : Promise.resolve();
  }

  /** `pending` until the run starts, `running` while it works, `finished` once its Run is settled. */
  get state(): ExecutionState {
    if (this.#finished) return 'finished';
    return this.#execution.log.events.length > 0 ? 'running' : 'pending';
  }

  /** Reads the run's log from `fromSequence`. */
  events(fromSequence = 0, signal?: AbortSignal): AsyncIterable<GhostlightEvent> {
    return this.#execution.log.read(fromSequence, signal);
  }

  [Symbol.asyncIterator](): AsyncIterator<GhostlightEvent> {
    return this.events()[Symbol.asyncIterator]();
  }

  /** Interjects (SPEC A18): resolves with the model response that follows the message. See `interject`. */
  interject(message: InterjectionInput, options?: InterjectOptions): Promise<InterjectionReply> {
    return interject(this, message, options);
  }

  /**
   * Cancels the run: it ends `cancelled`, its `run-cancel` event and its
   * `CancelledError` saying "The run was cancelled: <reason>" ("The run was
   * cancelled" without one; see `cancelledMessage`). Safe to call at any time.
   */
  cancel(reason?: string): void {
    this.#abort(cancelledMessage(reason));
  }

  /**
   * Waits for the run. Past `deadline` it rejects with `DeadlineExceededError`
   * and the run goes on (a deadline does not cancel). Rejects with the event
   * consumer's error if `onEvent` threw.
   */
  async wait(options: ExecutionWaitOptions = {}): Promise<Run<TOutput>> {
    const deadline = parseWaitDeadline(options.deadline);
    const done = Promise.all([this.run, this.#consumed]).then(([run]) => {
      if (this.#consumerError) throw this.#consumerError.error;
      return run;
    });
    if (deadline === undefined) return done;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineExceededError({ message: WAIT_DEADLINE_MESSAGE })), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([done, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cancels and waits (idempotent): the run ends `cancelled` unless it had already finished. */
  close(options: ExecutionWaitOptions = {}): Promise<Run<TOutput>> {
    this.cancel();
    return this.wait(options);
  }

  /** Closes the execution (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close().catch(() => undefined);
  }

  async #consume(onEvent: NonNullable<StartOptions['onEvent']>): Promise<void> {
    try {
      for await (const event of this.events()) await onEvent(event);
    } catch (error) {
      this.#consumerError = { error };
      this.#abort('The event consumer failed');
    }
  }

  #abort(message: string): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort(new CancelledError({ message }));
  }
}

function parseWaitDeadline(deadline: ExecutionWaitOptions['deadline']): number | undefined {
  if (deadline === undefined) return undefined;
  const time = deadline instanceof Date ? deadline.getTime() : typeof deadline === 'string' ? Date.parse(deadline) : deadline;
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new InvocationError('deadline must be a valid time');
  return time;
}
