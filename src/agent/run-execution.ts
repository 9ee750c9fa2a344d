// Why this file is long (STYLE.md: above 400 lines a file needs a reason): it is the agent's one central loop: turns,
// tool batches, limits, cancellation, the terminal event, and parking/settling a run that waits for approvals, which
// read and write the loop's private state. Pieces that need none of it live beside it (model-step, tool-executor, approvals).
import type { ModelMessage } from 'ai';
import { CancelledError, CleanupError, DeadlineExceededError, isControlError } from '../error/control-errors.ts';
import { OutputLimitError, ProtocolError } from '../error/protocol-error.ts';
import { EventLog } from '../events/event-log.ts';
import type { EventPayload, RunOutcome } from '../events/events.ts';
import { assertInputModalities } from '../content/input-modalities.ts';
import type { Attributes } from '../instrumentation/instrumentation-subscriber.ts';
import type { Operation, OperationContent } from '../instrumentation/operation.ts';
import { traceIdOf } from '../instrumentation/trace-context.ts';
import { AsyncScope } from '../lifetime/async-scope.ts';
import type { Invocation, RunHandle, RunState } from '../tool/tool-binding.ts';
import { throwIfAborted } from '../util/abort.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { runChain } from './hooks.ts';
import type { BeforeInvocationEvent, InvocationResult, ModelRequest, ModelResponse } from './hooks.ts';
import type { InterjectionBatch, InterjectionPort } from './interjection-port.ts';
import { createInvocation } from './invocation.ts';
import type { AgentInput, ApprovalResponse, AskOptions } from './invocation.ts';
import { pendingApprovals, requestOf, settleCalls, toolHash } from './approvals.ts';
import type { ParkedCall, ParkedRun } from './approvals.ts';
import type { PendingApproval } from '../events/events.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { JsonValue } from '../util/json.ts';
import { randomId } from '../util/id.ts';
import { runModelTurn } from './model-step.ts';
import type { ModelStepResult } from './model-step.ts';
import { fromModelResponse, toModelResponse } from './model-response.ts';
import { prepareRun } from './prepare-run.ts';
import type { PreparedRun } from './prepare-run.ts';
import { Run } from './run.ts';
import { classify, errorInfo, outcomeOf, providerCall, terminalEvent, ToolResolutionFailure } from './run-failure.ts';
import { errorMessageFor } from './runtime-hooks.ts';
import type { Step } from './step.ts';
import { presentationMessage, redactedStep, toolMessage } from './turn-messages.ts';
import { addUsage, EMPTY_USAGE, usageAttributes } from './usage.ts';
import type { Usage } from './usage.ts';

/** How often one turn's failed model call may be retried with a request an `afterModelError` hook replaced. */
export const MAX_MODEL_RECOVERIES = 3;

/**
 * One execution of an agent: owns its event log, abort controller, deadline
 * timer and resource scope, runs the loop, and always ends with exactly one
 * terminal event written after everything it opened is closed.
 */
export class RunExecution {
  readonly log: EventLog;
  readonly invocation: Invocation;
  readonly #definition: AgentDefinition;
  readonly #options: AskOptions;
  readonly #input: AgentInput | ApprovalResponse;
  /** The stop this run made for approvals, once it made one. */
  #parked: ParkedRun | undefined;
  readonly #controller = new AbortController();
  readonly #scope = new AsyncScope();
  /** The run's interjections, once something interjects (`interject()` attaches the queue). */
  #interjections: InterjectionPort | undefined;
  #interjectionsClosed = false;
  readonly #now: () => number;
  readonly #state: RunState;
  readonly #steps: Step[] = [];
  #messages: ModelMessage[] = [];
  /** The turn in progress (the last one once the loop ends). */
  #turn = 0;
  /** A structured turn's events, held until the turn is judged. */
  #buffered: EventPayload[] = [];
  #usage: Usage = EMPTY_USAGE;
  #lastCompletedText = '';
  #partialText = '';
  #startedAt = 0;
  /** Artifact media shown with the last tool results, removed after the next model response. */
  #presentation: ModelMessage | undefined;
  /** The checked structured result, once the model returned one. */
  #structuredOutput: { value: unknown } | undefined;
  /** The run's `run`, `agent` and current `agent_turn` operations, when it is instrumented. */
  #operation: Operation | undefined;
  #agentOperation: Operation | undefined;
  #turnOperation: Operation | undefined;

  constructor(definition: AgentDefinition, input: AgentInput | ApprovalResponse, options: AskOptions) {
    this.#definition = definition;
    this.#input = input;
    this.#options = options;
    this.#now = options._internal?.now ?? Date.now;
    this.invocation = createInvocation(options);
    this.log = new EventLog(this.invocation.runId, this.#now);
    this.#state = structuredClone(options.state ?? {});
  }

  /**
   * The run's interjection queue, made by `create` on first use (a run that
   * has ended gets it closed, so it refuses interjections).
   */
  interjections<PORT extends InterjectionPort>(create: () => PORT): PORT {
    if (!this.#interjections) {
      this.#interjections = create();
      if (this.#interjectionsClosed) this.#interjections.close();
    }
    return this.#interjections as PORT;
  }

  /** Runs to the end. Rejects only for bad configuration found before the run starts. */
  async execute(): Promise<Run> {
    this.#startedAt = this.#now();
    const detach = this.#linkSignals();
    this.#startOperations();
    try {
      const prepared = await prepareRun({
        definition: this.#definition,
        options: this.#options,
        input: this.#input,
        invocation: this.invocation,
        state: this.#state,
        signal: this.#controller.signal,
        scope: this.#scope,
        emit: (event) => this.#emit(event),
        recordUsage: (usage) => {
          this.#usage = addUsage(this.#usage, usage);
        },
        now: this.#now,
        operation: this.#agentOperation,
      });
      this.#messages = prepared.messages;
      return await this.#run(prepared);
    } catch (error) {
      this.#closeInterjections();
      if (error instanceof ToolResolutionFailure) return this.#failedToStart(error.cause);
      this.#finishOperations({ outcome: 'failed' }, error);
      this.log.fail(error);
      throw error;
    } finally {
      detach();
    }
  }

  async #run(prepared: PreparedRun): Promise<Run> {
    const agent = this.#definition.name;
    this.#emit({ type: 'run-start', sessionId: this.invocation.sessionId, agent });
    const trace = this.#operation ? this.#operation.traceContext() : this.#options.traceContext;
    const traceId = trace && traceIdOf(trace.traceparent);
    if (trace && traceId) this.#emit({ type: 'trace-context', traceId, traceparent: trace.traceparent, ...(trace.tracestate ? { tracestate: trace.tracestate } : {}) });
    this.#emit({ type: 'invocation-start', agent });
    let outcome: RunOutcome = 'completed';
    let response = '';
    let output: unknown;
    let failure: unknown;
    try {
      const answer = await this.#loop(prepared);
      if (this.#parked) {
        outcome = 'waiting';
        response = answer;
      } else ({ response, output } = await this.#conclude(prepared, answer));
      this.#turnOperation?.finish();
      this.#emit({ type: 'invocation-stop', agent, usage: this.#usage });
    } catch (error) {
      failure = classify(error, this.#controller.signal);
      this.#turnOperation?.finish({}, failure);
      outcome = outcomeOf(failure);
      response = outcome === 'partial' ? this.#partialText || this.#lastCompletedText : outcome === 'cancelled' ? '' : await this.#errorMessage(prepared, failure);
      this.#emit({ type: 'invocation-error', agent, usage: this.#usage, error: errorInfo(failure, response) });
    }
    this.#closeInterjections();

    const cleanupFailures = await this.#scope.close();
    let cleanupFailed = false;
    if (cleanupFailures.length > 0) {
      cleanupFailed = true;
      failure = cleanupFailures.length === 1 && CleanupError.isInstance(cleanupFailures[0])
        ? cleanupFailures[0]
        : new CleanupError({ errors: cleanupFailures.flatMap((item) => (CleanupError.isInstance(item) ? item.errors : [item])) });
      outcome = 'failed';
      response = await this.#errorMessage(prepared, failure);
    }

    const info = failure === undefined ? undefined : errorInfo(failure, response);
    if (outcome !== 'completed') output = undefined;
    const approvals: readonly PendingApproval[] = outcome === 'waiting' && this.#parked ? pendingApprovals(this.#parked) : [];
    this.#finishOperations({ outcome, ...usageAttributes(this.#usage), ...(cleanupFailed ? { cleanupFailed } : {}) }, failure, { output: response });
    this.#emit(outcome === 'waiting' ? { type: 'run-waiting', outcome, response, approvals } : terminalEvent(outcome, response, output, info, cleanupFailed));
    return new Run({
      runId: this.invocation.runId,
      sessionId: this.invocation.sessionId,
      agent,
      invocation: this.invocation,
      outcome,
      response,
      output,
      usage: this.#usage,
      error: failure,
      errorInfo: info,
      cleanupFailed,
      pendingApprovals: approvals,
      steps: this.#steps,
      messages: this.#messages,
      newMessages: this.#messages.filter((message) => !prepared.initial.has(message)),
      state: this.#state,
      events: this.log.events,
      startedAt: this.#startedAt,
      endedAt: this.#now(),
    });
  }

  /** The run whose tools could not be resolved (prepareRun closed what it opened): it ends at once with that cause. */
  async #failedToStart(cause: unknown): Promise<Run> {
    const agent = this.#definition.name;
    this.#emit({ type: 'run-start', sessionId: this.invocation.sessionId, agent });
    this.#emit({ type: 'invocation-start', agent });
    const failure = classify(cause, this.#controller.signal);
    const outcome = outcomeOf(failure);
    const hooks = [...(this.#options.runtimeHooks ?? []), ...(this.#definition.runtimeHooks ?? [])];
    const response = outcome === 'failed' ? await errorMessageFor(hooks, failure, { runId: this.invocation.runId, invocation: this.invocation }) : '';
    const info = errorInfo(failure, response);
    this.#emit({ type: 'invocation-error', agent, usage: this.#usage, error: info });
    this.#finishOperations({ outcome, ...usageAttributes(this.#usage) }, failure, { output: response });
    this.#emit(terminalEvent(outcome, response, undefined, info, false));
    return new Run({
      runId: this.invocation.runId,
      sessionId: this.invocation.sessionId,
      agent,
      invocation: this.invocation,
      outcome,
      response,
      output: undefined,
      usage: this.#usage,
      error: failure,
      errorInfo: info,
      cleanupFailed: false,
      pendingApprovals: [],
      steps: [],
      messages: [],
      newMessages: [],
      state: this.#state,
      events: this.log.events,
      startedAt: this.#startedAt,
      endedAt: this.#now(),
    });
  }

  /** The caller-safe message of a failure: the runtime hooks' (the run's first, then the agent's), else the default. */
  #errorMessage(prepared: PreparedRun, failure: unknown): Promise<string> {
    const hooks = [...(this.#options.runtimeHooks ?? []), ...(this.#definition.runtimeHooks ?? [])];
    return errorMessageFor(hooks, failure, prepared.handle);
  }

  /** The completed invocation's result, through `afterInvocation` hooks (a replaced conversation is checkpointed). */
  async #conclude(prepared: PreparedRun, response: string): Promise<InvocationResult> {
    const result: InvocationResult = { response, output: this.#structuredOutput ? this.#structuredOutput.value : response, messages: this.#messages };
    const after = await runChain(
      prepared.hooks.afterInvocation,
      { ...this.#hookContext(prepared), result },
      (event, replacement: InvocationResult) => ({ ...event, result: replacement }),
    );
    if (after.cancel !== undefined) throw new CancelledError({ message: after.cancel });
    if (!after.replaced) return result;
    const replaced = after.event.result;
    if (replaced.messages !== this.#messages) {
      this.#messages = [...replaced.messages];
      await this.#checkpoint(prepared, this.#turn);
    }
    return replaced;
  }

  #hookContext(prepared: PreparedRun): { run: RunHandle; state: RunState } {
    return { run: prepared.handle, state: this.#state };
  }

  async #loop(prepared: PreparedRun): Promise<string> {
    const { limits, executor, hooks, structured } = prepared;
    const signal = this.#controller.signal;
    const started = await runChain<BeforeInvocationEvent, readonly ModelMessage[]>(
      hooks.beforeInvocation,
      { ...this.#hookContext(prepared), messages: this.#messages },
      (event, messages: readonly ModelMessage[]) => ({ ...event, messages }),
    );
    if (started.cancel !== undefined) throw new CancelledError({ message: started.cancel });
    this.#messages = [...started.event.messages];

    const first = prepared.settle ? await this.#settle(prepared) : 1;
    if (this.#parked) return '';
    for (let turn = first; turn <= limits.maxTurns; turn++) {
      this.#turn = turn;
      this.#turnOperation?.finish();
      const turnOperation = (this.#turnOperation = this.#agentOperation?.start('agent_turn', { turn }));
      throwIfAborted(signal);
      const interjection = this.#deliverInterjections(turn, prepared);
      const { request, step: provided } = await this.#callModel(prepared, turn);
      this.#dropPresentation();
      const terminal = structured?.isTerminal(provided) ?? false;
      if (structured) for (const event of terminal ? structured.redactEvents(this.#buffered) : this.#buffered) this.#emit(event);
      this.#buffered = [];
      this.#usage = addUsage(this.#usage, provided.usage);
      this.#emit({ type: 'usage', turn, usage: provided.usage, total: this.#usage });
      this.#emit({ type: 'model-stop', turn, finishReason: provided.finishReason, usage: provided.usage });
      this.#partialText = '';

      const response = toModelResponse(provided);
      const after = await runChain(
        hooks.afterModel,
        { ...this.#hookContext(prepared), turn, request, response },
        (event, replacement: ModelResponse) => ({ ...event, response: replacement }),
      );
      if (after.cancel !== undefined) throw new CancelledError({ message: after.cancel });
      const step = after.replaced ? fromModelResponse(after.event.response, response) : provided;
      if (interjection) this.#interjections?.resolve(interjection, { text: step.text, toolCalls: step.toolCalls.length > 0 });

      const record: Step = { turn, text: step.text, reasoning: step.reasoning, toolCalls: step.toolCalls, toolResults: [], finishReason: step.finishReason, usage: step.usage };
      if (structured) {
        const decision = await structured.conclude(step);
        turnOperation?.emit('structured_result', { decision: decision.kind, terminal });
        if (decision.kind !== 'continue') {
          this.#messages.push(...decision.messages);
          this.#steps.push(terminal ? redactedStep(record, structured.marker) : record);
          if (decision.kind === 'repair') continue;
          this.#structuredOutput = { value: decision.value };
          return structured.marker;
        }
      }
      this.#messages.push(...step.responseMessages);
      if (step.text.length > 0) this.#lastCompletedText = step.text;

      if (step.toolCalls.length === 0) {
        this.#steps.push(record);
        if (step.finishReason === 'length') throw new OutputLimitError();
        await this.#checkpoint(prepared, turn);
        // Interjections that arrived while the final answer streamed get a turn of their own.
        if (this.#interjections?.finish() === false) continue;
        return step.text;
      }

      const waits = await Promise.all(step.toolCalls.map((call) => executor.needsApproval(call)));
      if (waits.includes(true)) {
        await this.#park(prepared, turn, record, waits);
        return step.text;
      }
      const results = await executor.executeBatch(step.toolCalls, 'model', turnOperation);
      if (results.some((result) => result.suspended)) {
        await this.#park(prepared, turn, record, waits, results);
        return step.text;
      }
      this.#steps.push({ ...record, toolResults: results });
      this.#messages.push(toolMessage(step.toolCalls, results));
      await this.#checkpoint(prepared, turn);
      this.#presentation = presentationMessage(results);
      if (this.#presentation) this.#messages.push(this.#presentation);
    }
    throw structured?.turnLimitError() ?? new ProtocolError('The agent reached its maximum model turns');
  }

  /**
   * Stops the run for approvals: the batch is counted, the calls that need no
   * approval run now, and the session keeps the assistant's calls, their
   * results and what the run needs to continue (its limits, turn and counts),
   * so any process can resume it from the session.
   */
  async #park(prepared: PreparedRun, turn: number, record: Step, waits: readonly boolean[], ran?: readonly ToolCallResult[]): Promise<void> {
    const { executor } = prepared;
    let results: readonly ToolCallResult[];
    if (ran) results = ran;
    else {
      executor.countCalls(record.toolCalls);
      const free = record.toolCalls.filter((_, index) => !waits[index]);
      results = free.length > 0 ? await executor.executeBatch(free, 'model', this.#turnOperation, true) : [];
    }
    const byId = new Map(results.map((result) => [result.toolCallId, result]));
    const timeout = this.#options.approvalTimeout;
    const requestedAt = this.#now();
    const tools = new Map(executor.list().map((tool) => [tool.name, tool]));
    const calls = record.toolCalls.map((call, index): ParkedCall => {
      const base = { toolCallId: call.toolCallId, toolName: call.toolName, input: (call.input ?? null) as JsonValue };
      const expiry = timeout === undefined ? {} : { expiresAt: requestedAt + timeout };
      if (!waits[index]) {
        const result = byId.get(call.toolCallId)!;
        const suspended = result.suspended;
        if (!suspended) return { ...base, result: { status: result.status, content: result.content } };
        const nested = { toolName: suspended.toolName, input: suspended.input, state: suspended.state };
        return { ...base, approval: { approvalId: randomId(), toolHash: suspended.toolHash, ...expiry, suspended: nested } };
      }
      return { ...base, approval: { approvalId: randomId(), toolHash: toolHash(tools.get(call.toolName)), ...expiry } };
    });
    const parked: ParkedRun = {
      version: 1,
      parkId: randomId(),
      runId: this.invocation.runId,
      agent: this.#definition.name,
      turn,
      toolCalls: executor.toolCalls,
      limits: prepared.limits,
      requestedAt,
      calls,
    };
    this.#steps.push({ ...record, toolResults: results.filter((result) => !result.suspended) });
    for (const pending of pendingApprovals(parked)) this.#emit({ type: 'tool-approval-request', ...pending });
    await this.#checkpoint(prepared, turn, parked);
    this.#parked = parked;
  }

  /**
   * Settles the session's parked stop before the first turn, exactly once:
   * the run claims the stop in the store (with its answers); the claim's
   * winner runs the approved calls. A claim already made while this run
   * holds the session means the run that made it stopped before it finished:
   * its approved calls end as error results the model sees. Returns the
   * first turn (a resume continues the stopped run's count).
   */
  async #settle(prepared: PreparedRun): Promise<number> {
    const { parked, decided, resume, userMessage } = prepared.settle!;
    const { executor } = prepared;
    const answers = Object.fromEntries([...decided].map(([id, answer]) => [id, answer]));
    const claim = await prepared.approvals!.claim(parked.parkId, { answers } as never);
    const effective = claim.won ? decided : new Map(Object.entries((claim.answers.answers ?? {}) as Record<string, { approved: boolean; reason?: string }>));
    const tools = new Map(executor.list().map((tool) => [tool.name, tool]));
    const settled = settleCalls(parked, effective, !claim.won, (name) => tools.get(name), resume);
    for (const item of settled) {
      if (item.answer) {
        const answer = item.answer;
        this.#emit({
          type: 'tool-approval-response',
          approvalId: item.call.approval!.approvalId,
          toolCallId: item.call.toolCallId,
          toolName: item.call.toolName,
          approved: answer.approved,
          ...(answer.reason === undefined ? {} : { reason: answer.reason }),
          ...(item.call.approval!.suspended ? { parentToolName: item.call.toolName } : {}),
        });
      }
      // An approved call that cannot run (its run stopped mid-call, its tool changed) ends with its error result.
      if (item.kind === 'result' && item.answer?.approved) {
        this.#emit({ type: 'tool-stop', toolCallId: item.call.toolCallId, toolName: item.call.toolName, caller: 'model', status: 'error', content: item.content, value: undefined, durationMs: 0 });
      }
    }
    const toRun = settled.flatMap((item) => (item.kind === 'run' ? [requestOf(item.call, item.resume)] : []));
    const ran = toRun.length > 0 ? await executor.executeBatch(toRun, 'model', this.#agentOperation, true) : [];
    const byId = new Map(ran.map((result) => [result.toolCallId, result]));
    const calls = parked.calls.map((call) => requestOf(call));
    const results = settled.map((item): ToolCallResult =>
      item.kind === 'run'
        ? byId.get(item.call.toolCallId)!
        : { toolCallId: item.call.toolCallId, toolName: item.call.toolName, input: item.call.input, status: item.status, content: item.content, value: undefined, artifacts: [], caller: 'model' },
    );
    if (results.some((result) => result.suspended)) {
      // A continued call suspended again (a program reached another call that needs approval): stop again.
      const record: Step = { turn: parked.turn, text: '', reasoning: '', toolCalls: calls, toolResults: [], finishReason: 'tool-calls', usage: EMPTY_USAGE };
      await this.#park(prepared, parked.turn, record, calls.map(() => false), results);
      return parked.turn;
    }
    this.#messages.push(toolMessage(calls, results));
    if (ran.length > 0) {
      this.#steps.push({ turn: parked.turn, text: '', reasoning: '', toolCalls: toRun, toolResults: ran, finishReason: 'tool-calls', usage: EMPTY_USAGE });
    }
    if (userMessage) this.#messages.push(userMessage);
    await this.#checkpoint(prepared, parked.turn, null);
    return resume ? parked.turn + 1 : 1;
  }

  #closeInterjections(): void {
    this.#interjectionsClosed = true;
    this.#interjections?.close();
  }

  /** Appends the interjections due at this model boundary to the conversation. */
  #deliverInterjections(turn: number, prepared: PreparedRun): InterjectionBatch | undefined {
    const batch = this.#interjections?.deliver();
    if (!batch) return undefined;
    this.#messages.push(...batch.messages);
    // Its metadata governs hooks and tools from here on (the handle is the `run` every binding and hook shares).
    if (batch.metadata) (prepared.handle as { interjectionMetadata?: Readonly<Record<string, unknown>> }).interjectionMetadata = batch.metadata;
    this.#turnOperation?.emit('agent_interjection_delivered', { interjectionIds: [...batch.interjectionIds], batchKey: batch.batchKey });
    this.#emit({
      type: 'agent-interjection-delivered',
      turn,
      interjectionIds: batch.interjectionIds,
      ...(batch.batchKey !== undefined ? { batchKey: batch.batchKey } : {}),
    });
    return batch;
  }

  /**
   * One model call of a turn: `beforeModel` hooks (the request they settle on
   * is what the conversation continues with), the call and its retries, and
   * on failure `afterModelError` hooks, whose replacement request starts the
   * call again from `beforeModel` (at most {@link MAX_MODEL_RECOVERIES} times
   * per turn). Cancellation, the deadline and `CleanupError` are never recovered.
   */
  async #callModel(prepared: PreparedRun, turn: number): Promise<{ request: ModelRequest; step: ModelStepResult }> {
    const { hooks } = prepared;
    let request: ModelRequest = { instructions: prepared.instructions, messages: this.#messages, tools: prepared.modelTools, settings: prepared.settings };
    for (let recovery = 0; ; recovery++) {
      const before = await runChain(
        hooks.beforeModel,
        { ...this.#hookContext(prepared), turn, request },
        (event, replacement: ModelRequest) => ({ ...event, request: replacement }),
      );
      if (before.cancel !== undefined) throw new CancelledError({ message: before.cancel });
      request = before.event.request;
      this.#messages = [...request.messages];
      try {
        return { request, step: await this.#attempt(prepared, turn, request) };
      } catch (error) {
        if (recovery >= MAX_MODEL_RECOVERIES || this.#controller.signal.aborted || isControlError(error)) throw error;
        const recovered = await runChain(
          hooks.afterModelError,
          { ...this.#hookContext(prepared), turn, request, error, recovery },
          (event, replacement: ModelRequest) => ({ ...event, request: replacement }),
        );
        if (recovered.cancel !== undefined) throw new CancelledError({ message: recovered.cancel, cause: error });
        if (!recovered.replaced) throw error;
        request = recovered.event.request;
        this.#messages = [...request.messages];
      }
    }
  }

  /** Sends one request (with its retries); a structured agent's events are buffered until the turn is judged. */
  async #attempt(prepared: PreparedRun, turn: number, request: ModelRequest): Promise<ModelStepResult> {
    const { structured } = prepared;
    const signal = this.#controller.signal;
    assertInputModalities(request.messages, prepared.capabilities);
    this.#emit({ type: 'model-start', turn });
    this.#partialText = '';
    this.#buffered = [];
    const modelOperation = this.#startModelOperation(prepared, turn, request);
    const step = await providerCall(signal, () => runModelTurn({
      caller: prepared.caller,
      instructions: request.instructions,
      messages: request.messages,
      tools: request.tools,
      settings: request.settings,
      toolChoice: structured?.toolChoice() ?? this.#definition.toolChoice,
      responseFormat: structured?.responseFormat(),
      terminalTool: structured?.terminalTool(),
      signal,
      turn,
      emit: structured ? (event) => this.#buffered.push(event) : (event) => this.#emit(event),
      onText: structured
        ? undefined
        : (text) => {
            this.#partialText = text;
          },
      deadline: this.invocation.deadline,
      now: this.#now,
      onRetry: (notice) => {
        modelOperation?.emit('model_retry', { attempt: notice.attempt, delayMs: notice.delayMs, errorType: notice.errorClass, httpStatus: notice.httpStatus });
        // A structured turn's events were never published: drop them; the retry notice itself is public.
        this.#buffered = [];
        this.#emit({
          type: 'model-retry',
          turn,
          attempt: notice.attempt,
          delay: notice.delayMs,
          errorClass: notice.errorClass,
          partialText: structured ? '' : notice.partialText,
          ...(notice.httpStatus !== undefined ? { httpStatus: notice.httpStatus } : {}),
        });
      },
    })).catch((error: unknown) => {
      modelOperation?.finish({}, error);
      throw error;
    });
    modelOperation?.finish({ finishReason: step.finishReason, responseId: step.response?.id, responseModel: step.response?.modelId, ...usageAttributes(step.usage) }, undefined, { output: step.responseMessages });
    return step;
  }

  /** Lets capabilities persist the completed turns (sessions); prelude messages are never persisted. */
  async #checkpoint(prepared: PreparedRun, turn: number, parked?: ParkedRun | null): Promise<void> {
    const messages = this.#messages.filter((message) => !prepared.prelude.has(message));
    for (const capability of prepared.checkpoints) {
      await capability.checkpoint?.({ messages, state: this.#state, turn, operation: this.#agentOperation, ...(parked === undefined ? {} : { parked }) });
    }
  }

  /** Removes the transient message of the last turn's artifact media once the model has seen it. */
  #dropPresentation(): void {
    const transient = this.#presentation;
    if (!transient) return;
    this.#presentation = undefined;
    this.#messages = this.#messages.filter((message) => message !== transient);
  }

  #emit(event: EventPayload): void {
    this.log.append(event);
  }

  /** Starts the `run` and `agent` operations when the run has an instrumentation bus with subscribers. */
  #startOperations(): void {
    const parent = this.#options.parentOperation;
    const bus = this.#options.instrumentation ?? this.#definition.instrumentation;
    if (!parent && !bus?.active) return;
    const agent = this.#definition.name;
    const attributes = { agent, runId: this.invocation.runId, sessionId: this.invocation.sessionId };
    this.#operation = parent
      ? parent.start('run', attributes, { input: this.#input })
      : bus!.start('run', attributes, { parent: this.#options.traceContext, captureContent: this.#definition.captureContent, content: { input: this.#input } });
    this.#agentOperation = this.#operation.start('agent', { agent });
  }

  #startModelOperation(prepared: PreparedRun, turn: number, request: ModelRequest): Operation | undefined {
    if (!this.#turnOperation) return undefined;
    const { modelId, provider } = prepared.caller.model;
    const settings = request.settings;
    return this.#turnOperation.start(
      'model',
      { model: modelId, provider, turn, temperature: settings.temperature, maxOutputTokens: settings.maxOutputTokens, topP: settings.topP },
      { input: request.messages },
    );
  }

  #finishOperations(attributes: Attributes, error: unknown, content?: OperationContent): void {
    this.#agentOperation?.finish(attributes, error);
    this.#operation?.finish(attributes, error, content);
  }

  /** Links the caller's signal and the deadline to the run's controller; returns the unlink function. */
  #linkSignals(): () => void {
    const cleanups: Array<() => void> = [];
    const external = this.#options.signal;
    if (external) {
      // A CancelledError as the reason (an execution's `cancel(reason)`) is the run's own error.
      const reason = () => (CancelledError.isInstance(external.reason) ? external.reason : new CancelledError({ cause: external.reason }));
      if (external.aborted) this.#controller.abort(reason());
      else {
        const onAbort = () => this.#controller.abort(reason());
        external.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => external.removeEventListener('abort', onAbort));
      }
    }
    const deadline = this.invocation.deadline;
    if (deadline !== undefined) {
      const fire = () => this.#controller.abort(new DeadlineExceededError());
      const delay = deadline - this.#now();
      if (delay <= 0) fire();
      else {
        const timer = setTimeout(fire, delay);
        cleanups.push(() => clearTimeout(timer));
      }
    }
    return () => cleanups.forEach((cleanup) => cleanup());
  }
}
