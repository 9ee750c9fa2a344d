import type { LanguageModel, ModelMessage } from 'ai';
import { ConfigurationError } from '../error/configuration-error';
import { CancelledError, CleanupError, DeadlineExceededError, ProviderError } from '../error/control-errors';
import { GhostlightError } from '../error/ghostlight-error';
import { OutputLimitError, ProtocolError } from '../error/protocol-error';
import { EventLog } from '../events/event-log';
import type { ErrorInfo, EventPayload, RunOutcome } from '../events/events';
import { assertInputModalities } from '../content/input-modalities';
import { AsyncScope } from '../lifetime/async-scope';
import { modelCapabilities } from '../model/model-capabilities';
import type { ModelCapabilities } from '../model/model-capabilities';
import { prepareStructuredResult } from '../structured/prepare-structured-result';
import type { StructuredResultController } from '../structured/structured-result-controller';
import type { Invocation, RunHandle, RunState, ToolBinding } from '../tool/tool-binding';
import type { Tool } from '../tool/tool';
import type { ToolCallRequest } from '../tool/invoke-tool';
import type { ToolCallResult } from '../tool/tool-result';
import { RunTools } from '../tool/run-tools';
import { abortReason, isAbortError, throwIfAborted } from '../util/abort';
import { Semaphore } from '../util/semaphore';
import type { AgentDefinition } from './agent-definition';
import { capabilitiesFor } from './capabilities';
import { chainHooks, runChain } from './hooks';
import type { BeforeModelEvent, HookChains } from './hooks';
import { createInvocation, toUserMessage } from './invocation';
import type { AgentInput, AskOptions } from './invocation';
import { resolveLimits } from './limits';
import type { ResolvedLimits } from './limits';
import { ModelCaller } from './model-call';
import { runModelStep } from './model-step';
import type { ModelSettings } from './model-step';
import { Run } from './run';
import type { CapabilitySetup, RunCapability } from './run-capability';
import { safeMessage } from './safe-message';
import type { Step } from './step';
import { ToolExecutor } from './tool-executor';
import { createToolLoopHooks } from './tool-loop-detector';
import { addUsage, EMPTY_USAGE } from './usage';
import type { Usage } from './usage';

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
    try {
      const prepared = await this.#prepare();
      return await this.#run(prepared);
    } catch (error) {
      this.log.fail(error);
      throw error;
    } finally {
      detach();
    }
  }

  /** Resolves everything that can be misconfigured; failures close what was opened and throw. */
  async #prepare(): Promise<Prepared> {
    const definition = this.#definition;
    const handle: RunHandle = { runId: this.invocation.runId, invocation: this.invocation };
    let binding: ToolBinding = {
      run: handle,
      agent: { name: definition.name },
      state: this.#state,
      signal: this.#controller.signal,
    };
    const emit = (event: EventPayload) => this.#emit(event);
    try {
      const limits = resolveLimits(definition.limits, this.#options.limits);
      const { model, capabilities: modelCaps } = this.#resolveModel();
      const userMessage = toUserMessage(this.#input);
      const capabilities = capabilitiesFor(definition, this.#options);

      const setups: CapabilitySetup[] = [];
      for (const capability of capabilities) {
        const setup = await capability.setup?.({ binding, scope: this.#scope, definition, options: this.#options, emit });
        if (!setup) continue;
        setups.push(setup);
        if (setup.bind) binding = { ...binding, ...setup.bind };
      }

      const registry = this.#options.toolRegistry;
      const tools = await RunTools.resolve([...(definition.tools ?? []), ...setups.flatMap((setup) => setup.tools ?? [])], binding, {
        lookup: registry && ((id) => registry.get(id)),
      });
      this.#scope.defer(async () => {
        const failures = await tools.close();
        if (failures.length > 0) throw new CleanupError({ errors: failures, message: 'Closing the tools of the run failed' });
      });
      const controlTools = new Set<string>();
      const loopHooks = definition.detectToolLoops
        ? createToolLoopHooks(definition.detectToolLoops === true ? {} : definition.detectToolLoops, controlTools)
        : undefined;
      const hooks = chainHooks(loopHooks, ...setups.map((setup) => setup.hooks), definition.hooks);
      const executor = new ToolExecutor({
        tools,
        binding,
        hooks,
        limits,
        emit,
        exclusiveLock: new Semaphore(1),
        controlTools,
        processors: setups.flatMap((setup) => setup.processors ?? []),
        guards: setups.flatMap((setup) => setup.guards ?? []),
      });

      let modelTools: readonly Tool[] = tools.list();
      const extraInstructions = setups.map((setup) => setup.instructions);
      for (const capability of capabilities) {
        const arranged = await capability.arrange?.({ tools: modelTools, broker: executor, binding, scope: this.#scope, emit });
        if (!arranged) continue;
        if (arranged.extraTools) tools.add(arranged.extraTools);
        if (arranged.tools) modelTools = arranged.tools;
        arranged.controlTools?.forEach((name) => controlTools.add(name));
        extraInstructions.push(arranged.instructions);
      }
      executor.arrange(new Set(modelTools.map((tool) => tool.name)), controlTools);
      const structured =
        definition.result === undefined
          ? undefined
          : prepareStructuredResult({ declaration: definition.result, agentName: definition.name, model, capabilities: modelCaps, tools: modelTools });

      const baseInstructions =
        typeof definition.instructions === 'function' ? await definition.instructions(binding) : definition.instructions;
      const instructions = [baseInstructions, ...extraInstructions].filter((text): text is string => !!text).join('\n\n');
      const prelude = setups.flatMap((setup) => setup.prelude ?? []);
      const history = setups.findLast((setup) => setup.history !== undefined)?.history ?? this.#options.history ?? [];
      this.#messages = [...prelude, ...history, userMessage];
      return {
        caller: new ModelCaller(model, clampOutputTokens(definition.settings ?? {}, modelCaps)),
        capabilities: modelCaps,
        structured,
        limits,
        modelTools,
        executor,
        hooks,
        instructions: instructions.length > 0 ? instructions : undefined,
        handle,
        historyLength: prelude.length + history.length,
        preludeLength: prelude.length,
        checkpoints: capabilities.filter((capability) => capability.checkpoint !== undefined),
      };
    } catch (error) {
      await this.#scope.close();
      throw error;
    }
  }

  #resolveModel(): { model: LanguageModel; capabilities: ModelCapabilities } {
    const name = this.#definition.model;
    const overrides = this.#definition.modelCapabilities;
    if (typeof name !== 'string') return { model: name, capabilities: modelCapabilities(name, overrides) };
    const registry = this.#options.models ?? this.#definition.models;
    if (!registry) throw new ConfigurationError(`Agent ${this.#definition.name} names the model ${name} but has no model registry`);
    const model = registry.resolve(name);
    return { model, capabilities: modelCapabilities(model, registry.capabilities?.(name), overrides) };
  }

  async #run(prepared: Prepared): Promise<Run> {
    const agent = this.#definition.name;
    this.#emit({ type: 'run-start', sessionId: this.invocation.sessionId, agent });
    this.#emit({ type: 'invocation-start', agent });
    let outcome: RunOutcome = 'completed';
    let response = '';
    let failure: unknown;
    try {
      response = await this.#loop(prepared);
      this.#emit({ type: 'invocation-stop', agent, usage: this.#usage });
    } catch (error) {
      failure = classify(error, this.#controller.signal);
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
    this.#emitTerminal(outcome, response, output, info, cleanupFailed);
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

  async #loop(prepared: Prepared): Promise<string> {
    const { limits, executor, hooks, structured } = prepared;
    const signal = this.#controller.signal;
    const modelTools = prepared.modelTools;
    for (let turn = 1; turn <= limits.maxTurns; turn++) {
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
      }));
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

      const results = await executor.executeBatch(step.toolCalls, 'model');
      this.#steps.push({ ...record, toolResults: results });
      this.#messages.push(toolMessage(step.toolCalls, results));
      await this.#checkpoint(prepared, turn);
      this.#presentation = presentationMessage(results);
      if (this.#presentation) this.#messages.push(this.#presentation);
    }
    throw structured?.turnLimitError() ?? new ProtocolError('The agent reached its maximum model turns');
  }

  /** Lets capabilities persist the completed turns (sessions). */
  async #checkpoint(prepared: Prepared, turn: number): Promise<void> {
    for (const capability of prepared.checkpoints) {
      await capability.checkpoint?.({ messages: this.#messages.slice(prepared.preludeLength), state: this.#state, turn });
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

  #emitTerminal(outcome: RunOutcome, response: string, output: unknown, info: ErrorInfo | undefined, cleanupFailed: boolean): void {
    const error = info ?? { name: 'Error', message: response };
    switch (outcome) {
      case 'completed':
        this.#emit({ type: 'run-stop', outcome, response, output });
        break;
      case 'partial':
        this.#emit({ type: 'run-partial', outcome, response, error });
        break;
      case 'cancelled':
        this.#emit({ type: 'run-cancel', outcome, response: '', error });
        break;
      case 'failed':
        this.#emit({ type: 'run-error', outcome, response, error, cleanupFailed });
        break;
    }
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

interface Prepared {
  caller: ModelCaller;
  capabilities: ModelCapabilities;
  /** The structured-result state machine, when the agent declares a result schema. */
  structured: StructuredResultController | undefined;
  limits: ResolvedLimits;
  modelTools: readonly Tool[];
  executor: ToolExecutor;
  hooks: HookChains;
  instructions: string | undefined;
  handle: RunHandle;
  historyLength: number;
  preludeLength: number;
  checkpoints: readonly RunCapability[];
}

/** The transient user message that shows tool-result media (artifact images and documents) to the model. */
function presentationMessage(results: readonly ToolCallResult[]): ModelMessage | undefined {
  const media = results.flatMap((result) => result.presentation ?? []);
  return media.length > 0 ? { role: 'user', content: media, providerOptions: { ghostlight: { transient: true } } } : undefined;
}

/** Settings with `maxOutputTokens` clamped to the model's ceiling, when the capabilities know it. */
function clampOutputTokens(settings: ModelSettings, capabilities: ModelCapabilities): ModelSettings {
  const ceiling = capabilities.maxOutputTokens;
  if (ceiling === undefined || settings.maxOutputTokens === undefined || settings.maxOutputTokens <= ceiling) return settings;
  return { ...settings, maxOutputTokens: ceiling };
}

/** A terminal structured turn as the run records it: the payload replaced by the marker. */
function redactedStep(step: Step, marker: string): Step {
  return { ...step, text: marker, reasoning: '', toolCalls: step.toolCalls.map((call) => ({ ...call, input: {} })) };
}

/** The tool message for the model: results in request order, under the names the model called (aliases, not registry ids). */
function toolMessage(calls: readonly ToolCallRequest[], results: readonly ToolCallResult[]): ModelMessage {
  return {
    role: 'tool',
    content: results.map((result, index) => ({
      type: 'tool-result' as const,
      toolCallId: result.toolCallId,
      toolName: calls[index]?.toolName ?? result.toolName,
      output:
        result.status === 'error'
          ? { type: 'error-text' as const, value: result.content }
          : { type: 'text' as const, value: result.content },
    })),
  };
}

/** Turns whatever ended the loop into the error the run reports. */
function classify(error: unknown, signal: AbortSignal): unknown {
  if (DeadlineExceededError.isInstance(error) || CancelledError.isInstance(error)) return error;
  if (signal.aborted && (isAbortError(error) || error === signal.reason)) return abortReason(signal);
  return error;
}

/** Runs a provider call; its failures (other than aborts and our own errors) become `ProviderError`s. */
async function providerCall<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (GhostlightError.isInstance(error) || signal.aborted) throw error;
    const statusCode = (error as { statusCode?: unknown } | undefined)?.statusCode;
    throw new ProviderError((error as Error | undefined)?.message ?? String(error), {
      cause: error,
      ...(typeof statusCode === 'number' ? { statusCode } : {}),
    });
  }
}

function outcomeOf(error: unknown): RunOutcome {
  if (DeadlineExceededError.isInstance(error)) return 'partial';
  if (CancelledError.isInstance(error)) return 'cancelled';
  return 'failed';
}

function errorInfo(error: unknown, response: string): ErrorInfo {
  const name = GhostlightError.isInstance(error) ? error.name : 'Error';
  const exposed =
    CancelledError.isInstance(error) || DeadlineExceededError.isInstance(error) || ProtocolError.isInstance(error) || ConfigurationError.isInstance(error);
  return { name, message: exposed ? (error as Error).message : response };
}
