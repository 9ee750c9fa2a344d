import type { ModelMessage } from 'ai';
import { CancelledError, CleanupError, DeadlineExceededError } from '../error/control-errors.ts';
import { OutputLimitError, ProtocolError } from '../error/protocol-error.ts';
import { EventLog } from '../events/event-log.ts';
import type { EventPayload, RunOutcome } from '../events/events.ts';
import { assertInputModalities } from '../content/input-modalities.ts';
import type { Attributes } from '../instrumentation/instrumentation-subscriber.ts';
import type { Operation, OperationContent } from '../instrumentation/operation.ts';
import { traceIdOf } from '../instrumentation/trace-context.ts';
import { AsyncScope } from '../lifetime/async-scope.ts';
import type { Invocation, RunState } from '../tool/tool-binding.ts';
import { throwIfAborted } from '../util/abort.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { runChain } from './hooks.ts';
import type { BeforeModelEvent } from './hooks.ts';
import { createInvocation } from './invocation.ts';
import type { AgentInput, AskOptions } from './invocation.ts';
import { runModelStep } from './model-step.ts';
import { prepareRun } from './prepare-run.ts';
import type { PreparedRun } from './prepare-run.ts';
import { Run } from './run.ts';
import { classify, errorInfo, outcomeOf, providerCall, terminalEvent } from './run-failure.ts';
import { safeMessage } from './safe-message.ts';
import type { Step } from './step.ts';
import { presentationMessage, redactedStep, toolMessage } from './turn-messages.ts';
import { addUsage, EMPTY_USAGE } from './usage.ts';
import type { Usage } from './usage.ts';

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
  readonly #input: AgentInput;
  readonly #controller = new AbortController();
  readonly #scope = new AsyncScope();
  readonly #now: () => number;
  readonly #state: RunState;
  readonly #steps: Step[] = [];
  #messages: ModelMessage[] = [];
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

  constructor(definition: AgentDefinition, input: AgentInput, options: AskOptions) {
    this.#definition = definition;
    this.#input = input;
    this.#options = options;
    this.#now = options._internal?.now ?? Date.now;
    this.invocation = createInvocation(options);
    this.log = new EventLog(this.invocation.runId, this.#now);
    this.#state = structuredClone(options.state ?? {});
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
        operation: this.#agentOperation,
      });
      this.#messages = prepared.messages;
      return await this.#run(prepared);
    } catch (error) {
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
    let failure: unknown;
    try {
      response = await this.#loop(prepared);
      this.#turnOperation?.finish();
      this.#emit({ type: 'invocation-stop', agent, usage: this.#usage });
    } catch (error) {
      failure = classify(error, this.#controller.signal);
      this.#turnOperation?.finish({}, failure);
      outcome = outcomeOf(failure);
      response = outcome === 'partial' ? this.#partialText || this.#lastCompletedText : outcome === 'cancelled' ? '' : safeMessage(failure);
      this.#emit({ type: 'invocation-error', agent, usage: this.#usage, error: errorInfo(failure, response) });
    }

    const cleanupFailures = await this.#scope.close();
    let cleanupFailed = false;
    if (cleanupFailures.length > 0) {
      cleanupFailed = true;
      failure = cleanupFailures.length === 1 && CleanupError.isInstance(cleanupFailures[0])
        ? cleanupFailures[0]
        : new CleanupError({ errors: cleanupFailures.flatMap((item) => (CleanupError.isInstance(item) ? item.errors : [item])) });
      outcome = 'failed';
      response = safeMessage(failure);
    }

    const info = failure === undefined ? undefined : errorInfo(failure, response);
    const output = outcome !== 'completed' ? undefined : this.#structuredOutput ? this.#structuredOutput.value : response;
    this.#finishOperations({ outcome, ...this.#usage, ...(cleanupFailed ? { cleanupFailed } : {}) }, failure, { output: response });
    this.#emit(terminalEvent(outcome, response, output, info, cleanupFailed));
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
      steps: this.#steps,
      messages: this.#messages,
      newMessages: this.#messages.slice(prepared.historyLength),
      state: this.#state,
      events: this.log.events,
      startedAt: this.#startedAt,
      endedAt: this.#now(),
    });
  }

  async #loop(prepared: PreparedRun): Promise<string> {
    const { limits, executor, hooks, structured } = prepared;
    const signal = this.#controller.signal;
    const modelTools = prepared.modelTools;
    for (let turn = 1; turn <= limits.maxTurns; turn++) {
      this.#turnOperation?.finish();
      const turnOperation = (this.#turnOperation = this.#agentOperation?.start('agent_turn', { turn }));
      throwIfAborted(signal);
      const before = await runChain<BeforeModelEvent, readonly ModelMessage[]>(
        hooks.beforeModel,
        { run: prepared.handle, state: this.#state, turn, messages: this.#messages },
        (event, messages) => ({ ...event, messages }),
      );
      if (before.cancel !== undefined) throw new CancelledError({ message: before.cancel });
      this.#messages = [...before.event.messages];

      assertInputModalities(this.#messages, prepared.capabilities);
      this.#emit({ type: 'model-start', turn });
      this.#partialText = '';
      // A structured agent's turn is buffered: a terminal turn's payload is redacted before it is published.
      const buffered: EventPayload[] = [];
      const modelOperation = this.#startModelOperation(prepared, turn);
      const step = await providerCall(signal, () => runModelStep({
        caller: prepared.caller,
        instructions: prepared.instructions,
        messages: this.#messages,
        tools: modelTools,
        toolChoice: structured?.toolChoice() ?? this.#definition.toolChoice,
        responseFormat: structured?.responseFormat(),
        terminalTool: structured?.terminalTool(),
        signal,
        turn,
        emit: structured ? (event) => buffered.push(event) : (event) => this.#emit(event),
        onText: structured
          ? undefined
          : (text) => {
              this.#partialText = text;
            },
        onRetry: modelOperation && ((notice) => modelOperation.emit('model_retry', { attempt: notice.attempt, delayMs: notice.delayMs, errorType: notice.errorClass, httpStatus: notice.httpStatus })),
      })).catch((error: unknown) => {
        modelOperation?.finish({}, error);
        throw error;
      });
      modelOperation?.finish({ finishReason: step.finishReason, responseId: step.response?.id, responseModel: step.response?.modelId, ...step.usage }, undefined, { output: step.responseMessages });
      this.#dropPresentation();
      const terminal = structured?.isTerminal(step) ?? false;
      if (structured) for (const event of terminal ? structured.redactEvents(buffered) : buffered) this.#emit(event);
      this.#usage = addUsage(this.#usage, step.usage);
      this.#emit({ type: 'usage', turn, usage: step.usage, total: this.#usage });
      this.#emit({ type: 'model-stop', turn, finishReason: step.finishReason, usage: step.usage });
      this.#partialText = '';

      const record: Step = { turn, text: step.text, reasoning: step.reasoning, toolCalls: step.toolCalls, toolResults: [], finishReason: step.finishReason, usage: step.usage };
      await runChain(hooks.afterModel, { run: prepared.handle, state: this.#state, turn, step: record }, (event) => event);
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
        return step.text;
      }

      const results = await executor.executeBatch(step.toolCalls, 'model', turnOperation);
      this.#steps.push({ ...record, toolResults: results });
      this.#messages.push(toolMessage(step.toolCalls, results));
      await this.#checkpoint(prepared, turn);
      this.#presentation = presentationMessage(results);
      if (this.#presentation) this.#messages.push(this.#presentation);
    }
    throw structured?.turnLimitError() ?? new ProtocolError('The agent reached its maximum model turns');
  }

  /** Lets capabilities persist the completed turns (sessions). */
  async #checkpoint(prepared: PreparedRun, turn: number): Promise<void> {
    for (const capability of prepared.checkpoints) {
      await capability.checkpoint?.({ messages: this.#messages.slice(prepared.preludeLength), state: this.#state, turn, operation: this.#agentOperation });
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

  #startModelOperation(prepared: PreparedRun, turn: number): Operation | undefined {
    if (!this.#turnOperation) return undefined;
    const { modelId, provider } = prepared.caller.model;
    const settings = this.#definition.settings;
    return this.#turnOperation.start(
      'model',
      { model: modelId, provider, turn, temperature: settings?.temperature, maxOutputTokens: settings?.maxOutputTokens, topP: settings?.topP },
      { input: this.#messages },
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
      if (external.aborted) this.#controller.abort(new CancelledError({ cause: external.reason }));
      else {
        const onAbort = () => this.#controller.abort(new CancelledError({ cause: external.reason }));
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
