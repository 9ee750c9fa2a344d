// Why this file is long (STYLE.md): it is the one step runner every composite shares: policies (timeout, retries,
// delay), the per-step event and output bounds, event routing (live, buffered, hidden) and the terminal outcome all act
// on one execution's state; Workflow, Swarm and Graph only decide which step runs next.
import type { ModelMessage, UserModelMessage } from 'ai';
import type { RunStream } from '../agent/agent.ts';
import type { Askable, AssemblyKind } from '../agent/askable.ts';
import { createInvocation, toUserMessage } from '../agent/invocation.ts';
import type { AgentInput, AskOptions } from '../agent/invocation.ts';
import type { Run } from '../agent/run.ts';
import { errorInfo, outcomeOf, terminalEvent } from '../agent/run-failure.ts';
import { safeMessage } from '../agent/safe-message.ts';
import { addUsage, EMPTY_USAGE } from '../agent/usage.ts';
import type { Usage } from '../agent/usage.ts';
import { CancelledError, DeadlineExceededError, InvocationError } from '../error/control-errors.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { EventLog } from '../events/event-log.ts';
import type { AssemblyPathStep, CompositeKind, ErrorInfo, EventPayload, GhostlightEvent } from '../events/events.ts';
import { isTerminalEvent } from '../events/events.ts';
import type { Invocation, RunState } from '../tool/tool-binding.ts';
import { abortReason } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { isPlainObject } from '../util/json.ts';
import { ancestryOf, withAncestry } from './ancestry.ts';
import { AssemblyError, AssemblyLimitError, AssemblyStepTimeoutError } from './assembly-errors.ts';
import { AssemblyRun, isAssemblyRun } from './assembly-run.ts';
import type { ResolvedStepPolicy } from './step-policy.ts';
import { shouldRetry } from './step-policy.ts';
import type { AssemblyStep, StepAttempt } from './trajectory.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

/** SPEC A15: a step's output is kept when its JSON is at most 64 KiB. */
export const MAX_STEP_OUTPUT_BYTES = 64 * 1024;
/** SPEC A15: one step may write at most 10,000 events… */
export const MAX_STEP_EVENTS = 10_000;
/** …and 10 MiB of event data. */
export const MAX_STEP_EVENT_BYTES = 10 * 1024 * 1024;

/** Events of a child that its parent never repeats: the child's own run framing. */
const FRAMING = new Set(['run-start', 'trace-context', 'invocation-start', 'invocation-stop', 'invocation-error']);

/** Options of a composite's `ask` and `stream`: an agent's, and whether participants' events are wrapped. */
export interface AssemblyAskOptions extends AskOptions {
  /**
   * Write every participant's events as `agent-stream` wrappers with their source (default true). They include
   * inputs, tool arguments and results and intermediate text of every participant: check the destination may see
   * the whole run, or pass false.
   */
  includeAgentEvents?: boolean | undefined;
}

/** What a composite tells its execution about itself. */
export interface CompositeIdentity {
  readonly name: string;
  readonly kind: CompositeKind;
}

/** One step to run. */
export interface StepRequest {
  readonly participant: string;
  readonly child: Askable;
  readonly input: AgentInput;
  readonly history: readonly ModelMessage[];
  readonly context: Record<string, unknown>;
  readonly state?: RunState | undefined;
  readonly policy: ResolvedStepPolicy;
  readonly predecessorIds?: readonly string[] | undefined;
  readonly branchId?: string | undefined;
  /** `live`: the child's events go to the assembly's log as they come (the answering step); `buffer`: kept for {@link AssemblyExecution.release}; `hidden`: only its assembly events. */
  readonly events: 'live' | 'buffer' | 'hidden';
  /** The step number in the start event (graphs count shared steps; workflows and swarms their own). */
  readonly step: number;
  /** Aborts this step only (a failed sibling branch). */
  readonly signal?: AbortSignal | undefined;
  /** Replaces the recorded output (a swarm handoff records its transition). */
  readonly recordOutput?: ((run: Run) => unknown) | undefined;
  /** Called with each attempt's run id as soon as its run exists (before any of its tools can run). */
  readonly started?: ((runId: string) => void) | undefined;
  /** Judges a child run that did not complete: return a run to accept it as the step's result (a swarm handoff). */
  readonly accept?: ((run: Run) => boolean) | undefined;
}

/** A step that ran. */
export interface StepResult {
  readonly run: Run;
  readonly step: AssemblyStep;
  /** The child's events, for `events: 'buffer'`. */
  readonly buffered: readonly EventPayload[];
}

/** A step's failure, with the step it ended (for error edges and the trajectory). */
export class StepFailure {
  readonly error: unknown;
  readonly step: AssemblyStep;
  constructor(error: unknown, step: AssemblyStep) {
    this.error = error;
    this.step = step;
  }
}

/**
 * One run of a composite: its invocation, event log and trajectory, the step
 * runner every composite uses (policies, limits, nested steps), and the one
 * terminal event, as an agent's run has.
 */
export class AssemblyExecution {
  readonly identity: CompositeIdentity;
  readonly invocation: Invocation;
  readonly log: EventLog;
  readonly input: UserModelMessage;
  readonly history: readonly ModelMessage[];
  readonly options: AssemblyAskOptions;
  /** Aborts with the caller's signal and at the deadline. */
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #steps: AssemblyStep[] = [];
  #usage: Usage = EMPTY_USAGE;
  #tick = 0;
  #state: RunState;
  #answer: Run | undefined;
  /** The latest completed assistant text: a partial run's response (SPEC A22). */
  #latestText = '';
  readonly #startedAt = Date.now();
  readonly #unlink: () => void;
  /** Whether participants' events are written as `agent-stream` wrappers (default true). */
  readonly #agentEvents: boolean;

  constructor(identity: CompositeIdentity, input: AgentInput, options: AssemblyAskOptions) {
    if (options.sessions !== undefined) {
      throw new InvocationError(`${identity.kind} ${identity.name} keeps no sessions: pass history instead`);
    }
    if (options.history !== undefined && !Array.isArray(options.history)) throw new InvocationError('history must be a list of messages');
    assertJsonLike(options.context ?? {}, `${identity.kind} context must contain only JSON-like state`);
    if (options.includeAgentEvents !== undefined && typeof options.includeAgentEvents !== 'boolean') throw new InvocationError('includeAgentEvents must be true or false');
    this.identity = identity;
    this.options = options;
    this.#agentEvents = options.includeAgentEvents ?? true;
    this.input = toUserMessage(input);
    this.history = Object.freeze([...(options.history ?? [])]);
    this.invocation = createInvocation(options);
    this.log = new EventLog(this.invocation.runId);
    this.#state = structuredClone(options.state ?? {});
    this.signal = this.#controller.signal;
    this.#unlink = this.#linkSignals();
  }

  /** The caller's context (a copy). */
  get context(): Record<string, unknown> {
    return { ...this.invocation.context };
  }

  /** The steps so far. */
  get steps(): readonly AssemblyStep[] {
    return this.#steps;
  }

  /** Writes an assembly event. */
  emit(payload: EventPayload): void {
    this.log.append(payload);
  }

  /** Throws when the run was cancelled or its deadline passed. */
  checkControl(signal: AbortSignal = this.signal): void {
    if (signal.aborted) throw abortReason(signal);
    const { deadline } = this.invocation;
    if (deadline !== undefined && Date.now() >= deadline) throw new DeadlineExceededError();
  }

  /**
   * Runs the composite's body and ends the run: `completed` with the run of the
   * participant that answered, or the outcome the body's failure gives
   * (`failed`, `partial` at the deadline, `cancelled`).
   */
  async execute(body: () => Promise<Run>): Promise<AssemblyRun> {
    this.log.append({ type: 'run-start', sessionId: this.invocation.sessionId, agent: this.identity.name });
    this.log.append({ type: 'invocation-start', agent: this.identity.name });
    let answer: Run | undefined;
    let failure: { error: unknown } | undefined;
    try {
      answer = await body();
      this.#answer = answer;
    } catch (error) {
      failure = { error: error instanceof StepFailure ? error.error : error };
    } finally {
      this.#unlink();
    }
    return this.#finish(answer, failure);
  }

  #finish(answer: Run | undefined, failure: { error: unknown } | undefined): AssemblyRun {
    const { error } = failure ?? {};
    const outcome = failure ? outcomeOf(error) : 'completed';
    const response = !failure ? answer!.response : outcome === 'failed' ? safeMessage(error) : outcome === 'partial' ? this.#latestText : '';
    const info: ErrorInfo | undefined = failure ? assemblyErrorInfo(error, response) : undefined;
    const output = failure ? undefined : answer!.output;
    const added: ModelMessage[] = [this.input, ...(answer ? answer.newMessages.filter((message) => message.role !== 'user') : [])];
    if (failure) this.log.append({ type: 'invocation-error', agent: this.identity.name, usage: this.#usage, error: info! });
    else this.log.append({ type: 'invocation-stop', agent: this.identity.name, usage: this.#usage });
    this.log.append(terminalEvent(outcome, response, output, info, false));
    return new AssemblyRun(
      {
        runId: this.invocation.runId,
        sessionId: this.invocation.sessionId,
        agent: this.identity.name,
        invocation: this.invocation,
        outcome,
        pendingApprovals: [],
        response,
        output,
        usage: this.#usage,
        error,
        errorInfo: info,
        cleanupFailed: false,
        steps: answer?.steps ?? [],
        messages: [...this.history, ...added],
        newMessages: added,
        state: answer?.state ?? this.#state,
        events: this.log.events,
        startedAt: this.#startedAt,
        endedAt: Date.now(),
      },
      this.#steps,
    );
  }

  /** The working state the next sequential step starts from. */
  get state(): RunState {
    return this.#state;
  }

  /**
   * Runs one step with its policy: each attempt is a fresh run of the child
   * (its deadline the earlier of the run's and the step's `timeout`), its
   * events counted against the step limits and forwarded, buffered or hidden;
   * a failed attempt is retried when `retryOn` accepts it. Throws a
   * {@link StepFailure} when the step fails for good.
   */
  async runStep(request: StepRequest): Promise<StepResult> {
    const id = randomId();
    const { policy } = request;
    const source = { assembly: this.identity.name, assemblyKind: this.identity.kind, stepId: id, participant: request.participant, ...(request.branchId !== undefined ? { branchId: request.branchId } : {}) };
    const path: AssemblyPathStep = Object.freeze({ assembly: source.assembly, assemblyKind: source.assemblyKind, participant: source.participant, stepId: id, ...(request.branchId !== undefined ? { branchId: request.branchId } : {}) });
    const attempts: StepAttempt[] = [];
    let usage: Usage = EMPTY_USAGE;
    this.emit({ type: 'assembly-step-start', ...source, step: request.step });
    const record = (status: 'completed' | 'failed', output: unknown, nested: readonly AssemblyStep[] = []): AssemblyStep => {
      const projected = projectOutput(output);
      const step: AssemblyStep = Object.freeze({
        id,
        predecessorIds: Object.freeze([...(request.predecessorIds ?? [])]),
        ...(request.branchId !== undefined ? { branchId: request.branchId } : {}),
        participant: request.participant,
        assembly: this.identity.name,
        target: request.child.name,
        kind: kindOf(request.child),
        status,
        attempts: Object.freeze([...attempts]),
        usage,
        output: projected.output,
        outputTruncated: projected.truncated,
      });
      this.#steps.push(step, ...nested.map((child) => (child.parentId === undefined ? Object.freeze({ ...child, parentId: id }) : child)));
      this.#usage = addUsage(this.#usage, usage);
      return step;
    };
    for (let number = 1; ; number++) {
      const startedAt = Date.now();
      const startTick = ++this.#tick;
      const signals = [this.signal, ...(request.signal ? [request.signal] : [])];
      const parentDeadline = this.invocation.deadline;
      const ownDeadline = policy.timeout !== undefined ? startedAt + policy.timeout : undefined;
      const deadline = ownDeadline !== undefined && (parentDeadline === undefined || ownDeadline < parentDeadline) ? ownDeadline : parentDeadline;
      let run: Run | undefined;
      let error: unknown;
      const buffered: EventPayload[] = [];
      try {
        for (const signal of signals) this.checkControl(signal);
        run = await this.#attempt(request, path, deadline, signals, buffered);
        if (run.outcome !== 'completed' && !request.accept?.(run)) error = run.error ?? new ProtocolError(`assembly step ${JSON.stringify(request.participant)} did not return a result`);
      } catch (thrown) {
        error = thrown;
      }
      // The run's own cancellation or deadline reaches the child as an abort: report the run's reason.
      if (error !== undefined && CancelledError.isInstance(error) && this.signal.aborted) error = abortReason(this.signal);
      if (error !== undefined && DeadlineExceededError.isInstance(error) && deadline === ownDeadline && ownDeadline !== undefined && !this.signal.aborted) {
        error = new AssemblyStepTimeoutError(`assembly step ${JSON.stringify(request.participant)} exceeded its timeout`);
      }
      this.#noteText(run, error);
      const attemptUsage = run?.usage ?? EMPTY_USAGE;
      usage = addUsage(usage, attemptUsage);
      const finished = { number, startedAt, finishedAt: Date.now(), startTick, finishTick: ++this.#tick, usage: attemptUsage };
      if (error === undefined) {
        attempts.push(Object.freeze({ ...finished, status: 'completed' as const }));
        const step = record('completed', request.recordOutput ? request.recordOutput(run!) : run!.output, isAssemblyRun(run) ? run.trajectory.steps : []);
        this.emit({ type: 'assembly-step-stop', ...source, step: request.step, usage });
        if (request.state === undefined) this.#state = run!.state;
        return { run: run!, step, buffered };
      }
      const errorType = errorName(error);
      attempts.push(Object.freeze({ ...finished, status: 'failed' as const, error: errorType }));
      const retrying = shouldRetry(error, policy, number) && !this.signal.aborted && !request.signal?.aborted;
      this.emit({ type: 'assembly-step-error', ...source, attempt: number, errorType, terminal: !retrying });
      if (!retrying) throw new StepFailure(error, record('failed', undefined));
      this.emit({ type: 'assembly-step-retry', ...source, attempt: number, errorType, delay: policy.retryDelay });
      if (policy.retryDelay > 0) await sleep(policy.retryDelay, request.signal ? AbortSignal.any([this.signal, request.signal]) : this.signal);
    }
  }

  /** One attempt: a fresh run of the child, its events counted and routed. */
  async #attempt(request: StepRequest, path: AssemblyPathStep, deadline: number | undefined, signals: readonly AbortSignal[], buffered: EventPayload[]): Promise<Run> {
    const composite = kindOf(request.child) !== 'agent';
    // One controller per attempt, aborted by the run, the step's own signal, or a step limit.
    const limit = new AbortController();
    const unlink = linkAbort(limit, signals);
    const options: AskOptions = {
      actorId: this.invocation.actorId,
      sessionId: this.invocation.sessionId,
      context: structuredClone(request.context),
      metadata: { ...this.invocation.metadata },
      history: request.history,
      state: structuredClone(request.state ?? this.#state),
      signal: limit.signal,
      deadline,
      ...(this.options.models ? { models: this.options.models } : {}),
      ...(this.options.toolRegistry ? { toolRegistry: this.options.toolRegistry } : {}),
      ...(this.options.instrumentation ? { instrumentation: this.options.instrumentation } : {}),
      ...(this.options.parentOperation ? { parentOperation: this.options.parentOperation } : {}),
      ...(composite ? { includeAgentEvents: this.#agentEvents } : {}),
    };
    let stream: RunStream;
    try {
      stream = request.child.stream(request.input, withAncestry(options, ancestryOf(this.options)));
    } catch (error) {
      unlink();
      throw error;
    }
    request.started?.(stream.runId);
    let count = 0;
    let bytes = 0;
    let exceeded: AssemblyLimitError | undefined;
    try {
      for await (const event of stream) {
        if (exceeded) continue;
        count++;
        bytes += eventBytes(event);
        if (count > MAX_STEP_EVENTS || bytes > MAX_STEP_EVENT_BYTES) {
          exceeded = new AssemblyLimitError(count > MAX_STEP_EVENTS ? 'assembly step emitted too many events' : 'assembly step emitted too much event data');
          limit.abort(new CancelledError({ message: exceeded.message }));
          continue;
        }
        if (event.type === 'agent-stream') {
          // A nested composite's participant: its path gets this step in front.
          if (this.#agentEvents) this.emit({ ...event, type: 'agent-stream', source: { ...event.source, assemblyPath: Object.freeze([path, ...event.source.assemblyPath]) } } as EventPayload);
          continue;
        }
        if (this.#agentEvents && !composite && event.type !== 'run-start' && event.type !== 'trace-context' && !isTerminalEvent(event)) {
          this.emit({
            type: 'agent-stream',
            source: Object.freeze({ agent: request.child.name, runId: stream.runId, assemblyPath: Object.freeze([path]) }),
            event: deepFreeze(structuredClone(stripEnvelope(event))),
            ...(event.type === 'invocation-start' ? { input: deepFreeze(structuredClone(request.input)) } : {}),
          });
        }
        if (FRAMING.has(event.type) || isTerminalEvent(event)) continue;
        const payload = stripEnvelope(event);
        if (event.type.startsWith('assembly-')) this.emit(payload);
        else if (request.events === 'live') this.emit(payload);
        else if (request.events === 'buffer') buffered.push(payload);
      }
    } catch (error) {
      // A child that could not start (bad configuration) fails the step.
      await stream.run.catch(() => undefined);
      throw error;
    } finally {
      unlink();
    }
    const run = await stream.run;
    if (exceeded) throw exceeded;
    return run;
  }

  /**
   * Keeps the latest completed assistant text for a `partial` outcome: the
   * response of a step that completed, or of a nested composite that itself
   * ended `partial` at the run's deadline (its own latest completed text). A
   * failed, timed-out or retried attempt, an accepted handoff and a participant
   * cut off mid-answer add none.
   */
  #noteText(run: Run | undefined, error: unknown): void {
    if (run === undefined || run.response === '') return;
    const completed = error === undefined && run.outcome === 'completed';
    const nestedPartial = isAssemblyRun(run) && run.outcome === 'partial' && DeadlineExceededError.isInstance(error);
    if (completed || nestedPartial) this.#latestText = run.response;
  }

  /** Writes a buffered step's events (the swarm member that answered). */
  release(events: readonly EventPayload[]): void {
    for (const event of events) this.emit(event);
  }

  /** The last answering run (for the assemblies' own checks). */
  get answer(): Run | undefined {
    return this.#answer;
  }

  #linkSignals(): () => void {
    const cleanups: Array<() => void> = [];
    const external = this.options.signal;
    if (external) {
      // An enclosing composite's deadline reaches a nested one through its signal, first: the deadline, not a cancellation.
      const reason = () => (DeadlineExceededError.isInstance(external.reason) ? external.reason : new CancelledError({ cause: external.reason }));
      if (external.aborted) this.#controller.abort(reason());
      else {
        const onAbort = () => this.#controller.abort(reason());
        external.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => external.removeEventListener('abort', onAbort));
      }
    }
    const { deadline } = this.invocation;
    if (deadline !== undefined) {
      const fire = () => this.#controller.abort(new DeadlineExceededError());
      const delay = deadline - Date.now();
      if (delay <= 0) fire();
      else {
        const timer = setTimeout(fire, delay);
        cleanups.push(() => clearTimeout(timer));
      }
    }
    return () => cleanups.forEach((cleanup) => cleanup());
  }
}

/** An assembly's `stream`: the execution's log and its run, as an agent's `RunStream`. */
export function streamOf(execution: AssemblyExecution, run: Promise<AssemblyRun>): RunStream {
  run.catch(() => undefined);
  const events = (fromSequence = 0, signal?: AbortSignal) => execution.log.read(fromSequence, signal);
  return {
    runId: execution.invocation.runId,
    run,
    events,
    [Symbol.asyncIterator]: () => events()[Symbol.asyncIterator](),
  };
}

/** The client-safe description of an assembly's failure: assembly errors say what went wrong (they name only participants). */
function assemblyErrorInfo(error: unknown, response: string): ErrorInfo {
  if (AssemblyError.isInstance(error)) return { name: error.name, message: error.message };
  return errorInfo(error, response);
}

function stripEnvelope(event: GhostlightEvent): EventPayload {
  const { runId: _runId, sequence: _sequence, time: _time, ...payload } = event;
  return payload as EventPayload;
}

/** About how many bytes an event holds (UTF-16 text, JSON for values): exact enough for a 10 MiB bound, cheap per event. */
function eventBytes(event: GhostlightEvent): number {
  switch (event.type) {
    case 'text-delta':
    case 'reasoning-delta':
    case 'message-stop':
      return event.text.length * 2 + 128;
    case 'tool-call-delta':
      return event.delta.length * 2 + 128;
    case 'tool-start':
    case 'tool-call-stop':
      return jsonBytes(event.input) + 256;
    case 'tool-stop':
      return event.content.length * 2 + jsonBytes(event.value) + 256;
    case 'program-start':
      return event.source.length * 2 + 128;
    case 'program-observe':
      return event.output.length * 2 + jsonBytes(event.value) + 256;
    case 'run-stop':
      return event.response.length * 2 + jsonBytes(event.output) + 256;
    default:
      return 256;
  }
}

function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'string') return value.length * 2;
  try {
    return (JSON.stringify(value)?.length ?? 0) * 2;
  } catch {
    return 256;
  }
}

function projectOutput(output: unknown): { output: unknown; truncated: boolean } {
  let text: string | undefined;
  try {
    text = typeof output === 'string' ? output : JSON.stringify(output);
  } catch {
    return { output: undefined, truncated: true };
  }
  if (text === undefined) return { output, truncated: false };
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only text near the bound is encoded to measure it.
  if (text.length * 3 > MAX_STEP_OUTPUT_BYTES && new TextEncoder().encode(text).length > MAX_STEP_OUTPUT_BYTES) return { output: undefined, truncated: true };
  return { output: typeof output === 'object' && output !== null ? deepFreeze(structuredClone(output)) : output, truncated: false };
}

/** The error's name (what events and attempts record; never the message). */
export function errorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.length > 0 ? name : 'Error';
}

function kindOf(child: Askable): AssemblyKind {
  return child.kind ?? 'agent';
}

/** Throws `InvocationError(message)` unless `value` is JSON-like (plain objects, arrays, strings, finite numbers, booleans, null). */
export function assertJsonLike(value: unknown, message: string): void {
  const seen = new Set<unknown>();
  const visit = (item: unknown, depth: number): boolean => {
    if (item === null || typeof item === 'string' || typeof item === 'boolean') return true;
    if (typeof item === 'number') return Number.isFinite(item);
    if (depth > 64 || seen.has(item)) return false;
    if (Array.isArray(item)) {
      seen.add(item);
      const ok = item.every((entry) => visit(entry, depth + 1));
      seen.delete(item);
      return ok;
    }
    if (isPlainObject(item)) {
      seen.add(item);
      const ok = Object.values(item).every((entry) => entry === undefined || visit(entry, depth + 1));
      seen.delete(item);
      return ok;
    }
    return false;
  };
  if (!isPlainObject(value) || !visit(value, 0)) throw new InvocationError(message);
}

/** Aborts `controller` when any of `signals` aborts (with its reason); returns the unlink function. */
function linkAbort(controller: AbortController, signals: readonly AbortSignal[]): () => void {
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      return () => undefined;
    }
  }
  for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    for (const signal of signals) signal.removeEventListener('abort', onAbort);
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
