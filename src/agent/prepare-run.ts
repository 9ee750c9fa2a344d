import type { LanguageModel, ModelMessage } from 'ai';
import { CleanupError } from '../error/control-errors.ts';
import { ConfigurationError, SessionRequiredError } from '../error/configuration-error.ts';
import type { EventPayload } from '../events/events.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { AsyncScope } from '../lifetime/async-scope.ts';
import { modelCapabilities } from '../model/model-capabilities.ts';
import type { ModelCapabilities } from '../model/model-capabilities.ts';
import { prepareStructuredResult } from '../structured/prepare-structured-result.ts';
import type { StructuredResultController } from '../structured/structured-result-controller.ts';
import type { Invocation, RunHandle, RunState, ToolBinding } from '../tool/tool-binding.ts';
import type { Tool } from '../tool/tool.ts';
import { RunTools } from '../tool/run-tools.ts';
import { Semaphore } from '../util/semaphore.ts';
import type { AgentDefinition, PromptLocals } from './agent-definition.ts';
import { capabilitiesFor } from './capabilities.ts';
import { chainHooks } from './hooks.ts';
import type { HookChains } from './hooks.ts';
import { toUserMessage } from './invocation.ts';
import { assertKnownOptions, CORE_OPTION_KEYS } from './option-keys.ts';
import { isApprovalResponse } from './invocation.ts';
import type { AgentInput, ApprovalResponse, AskOptions } from './invocation.ts';
import { checkAnswers, denyAll, APPROVAL_SUPERSEDED_REASON } from './approvals.ts';
import type { ParkedRun } from './approvals.ts';
import { ApprovalError } from '../error/approval-error.ts';
import type { ModelMessage as Message } from 'ai';
import { resolveLimits } from './limits.ts';
import type { ResolvedLimits } from './limits.ts';
import { ModelCaller } from './model-call.ts';
import type { ModelSettings } from './model-step.ts';
import type { ApprovalStore, CapabilitySetup, RunCapability } from './run-capability.ts';
import { createRunModel } from './run-model.ts';
import { chooseHistory } from './runtime-hooks.ts';
import type { Usage } from './usage.ts';
import { ToolResolutionFailure } from './run-failure.ts';
import { ToolExecutor } from './tool-executor.ts';
import { createToolLoopHooks } from './tool-loop-detector.ts';

/** What a run needs to prepare itself. */
export interface PrepareRunInput {
  readonly definition: Readonly<AgentDefinition>;
  readonly options: Readonly<AskOptions>;
  readonly input: AgentInput | ApprovalResponse;
  readonly invocation: Invocation;
  readonly state: RunState;
  readonly signal: AbortSignal;
  /** The run's scope: everything opened here is registered on it. */
  readonly scope: AsyncScope;
  readonly emit: (event: EventPayload) => void;
  /** The run's agent operation, when the run is instrumented. */
  readonly operation?: Operation | undefined;
  /** Adds usage outside the turns (a capability's model calls) to the run's. */
  readonly recordUsage: (usage: Usage) => void;
  readonly now: () => number;
}

/** A prepared run: its model caller, tools, executor, hooks, instructions and first messages. */
export interface PreparedRun {
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
  /** The settings of every turn unless a hook replaces them (`maxOutputTokens` clamped). */
  settings: ModelSettings;
  /** The conversation the first turn sends: prelude, history, the user's message. */
  messages: ModelMessage[];
  /** Capability prelude messages (never checkpointed). */
  prelude: ReadonlySet<ModelMessage>;
  /** Prelude and history: what the run did not add. */
  initial: ReadonlySet<ModelMessage>;
  checkpoints: readonly RunCapability[];
  /** Where a stop for approvals is kept (the session), when the run has a session store. */
  approvals: ApprovalStore | undefined;
  /**
   * The session's parked stop this run settles before its first turn: the
   * answers of a resume, or denials when a new message arrived instead; the
   * new message follows the settled results.
   */
  settle: { parked: ParkedRun; decided: Map<string, { approved: boolean; reason?: string }>; resume: boolean; userMessage: Message | undefined } | undefined;
}

/**
 * Resolves everything that can be misconfigured, in order: limits, the model,
 * each capability's setup, the run's tools and executor, each capability's
 * arrangement, the structured result and the instructions. A failure closes
 * what was opened (the scope) and throws: bad configuration never starts a run.
 */
export async function prepareRun(run: PrepareRunInput): Promise<PreparedRun> {
  try {
    return await prepare(run);
  } catch (error) {
    await run.scope.close();
    throw error;
  }
}

async function prepare(input: PrepareRunInput): Promise<PreparedRun> {
  const { definition, options, invocation, state, signal, scope, emit, operation } = input;
  const handle: RunHandle = { runId: invocation.runId, invocation };
  let binding: ToolBinding = { run: handle, agent: { name: definition.name }, state, signal, ...(operation ? { operation } : {}) };
  const resuming = isApprovalResponse(input.input);
  if (resuming && options.limits !== undefined) throw new ApprovalError('An approval answer cannot change the limits');
  let limits = resolveLimits(definition.limits, options.limits);
  const { model, capabilities: modelCaps } = resolveModel(definition, options);
  const settings = clampOutputTokens(definition.settings ?? {}, modelCaps);
  const runModel = createRunModel({
    model,
    capabilities: modelCaps,
    settings,
    signal,
    deadline: invocation.deadline,
    now: input.now,
    recordUsage: input.recordUsage,
    operation,
  });
  const userMessage = resuming ? undefined : toUserMessage(input.input as AgentInput);
  const capabilities = capabilitiesFor(definition, options);
  assertKnownOptions(options, new Set([...CORE_OPTION_KEYS, ...capabilities.flatMap((capability) => capability.optionKeys ?? [])]));
  const runtimeHooks = [...(options.runtimeHooks ?? []), ...(definition.runtimeHooks ?? [])];

  const setups: CapabilitySetup[] = [];
  for (const capability of capabilities) {
    const setup = await capability.setup?.({ binding, scope, definition, options, emit, model: runModel });
    if (!setup) continue;
    setups.push(setup);
    if (setup.bind) binding = { ...binding, ...setup.bind };
  }
  for (const hook of runtimeHooks) await hook.prepareRun?.({ run: handle, binding, state, scope });

  const approvals = setups.find((setup) => setup.approvals)?.approvals;
  const parked = approvals?.parked;
  if (resuming) {
    if (!approvals) throw new ApprovalError('agent.resume needs the session store the run waited in (sessions)');
    if (!parked) throw new ApprovalError(`No approval is pending in session ${invocation.sessionId}`);
    limits = parked.limits;
  }
  const now = input.now();
  const settle = parked
    ? {
        parked,
        decided: resuming ? checkAnswers(parked, (input.input as ApprovalResponse).approvals, now) : denyAll(parked, APPROVAL_SUPERSEDED_REASON, now),
        resume: resuming,
        userMessage,
      }
    : undefined;

  const registry = options.toolRegistry;
  let tools: RunTools;
  try {
    tools = await RunTools.resolve([...(definition.tools ?? []), ...setups.flatMap((setup) => setup.tools ?? [])], binding, {
      lookup: registry && ((id) => registry.get(id)),
    });
  } catch (error) {
    if (ConfigurationError.isInstance(error)) throw error;
    throw new ToolResolutionFailure(error);
  }
  scope.defer(async () => {
    const failures = await tools.close();
    if (failures.length > 0) throw new CleanupError({ errors: failures, message: 'Closing the tools of the run failed' });
  });
  const controlTools = new Set<string>();
  const expectedRepeats = setups.flatMap((setup) => (setup.expectedRepeat ? [setup.expectedRepeat] : []));
  const loopHooks = definition.detectToolLoops
    ? createToolLoopHooks(definition.detectToolLoops === true ? {} : definition.detectToolLoops, controlTools, expectedRepeats)
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
    initialToolCalls: resuming && parked ? parked.toolCalls : 0,
    processors: setups.flatMap((setup) => setup.processors ?? []),
    guards: setups.flatMap((setup) => setup.guards ?? []),
  });

  const waiting = tools.list().find((tool) => tool.needsApproval);
  if (waiting && !approvals) {
    throw new SessionRequiredError(`Tool ${waiting.name} can need approval, and a run waits for approval in its session: pass sessions (a session store) to the run`);
  }
  let modelTools: readonly Tool[] = tools.list();
  const arrangedInstructions: Array<string | undefined> = [];
  const keepModelFacing: ReadonlySet<string> = new Set(setups.flatMap((setup) => setup.keepModelFacing ?? []));
  for (const capability of capabilities) {
    const arranged = await capability.arrange?.({ tools: modelTools, keepModelFacing, broker: executor, binding, scope, emit });
    if (!arranged) continue;
    if (arranged.extraTools) tools.add(arranged.extraTools);
    if (arranged.tools) modelTools = arranged.tools;
    arranged.controlTools?.forEach((name) => controlTools.add(name));
    arrangedInstructions.push(arranged.instructions);
  }
  executor.arrange(new Set(modelTools.map((tool) => tool.name)), controlTools);
  const structured =
    definition.result === undefined
      ? undefined
      : prepareStructuredResult({ declaration: definition.result, agentName: definition.name, model, capabilities: modelCaps, tools: modelTools });

  const instructions = await resolveInstructions(definition, binding, setups, arrangedInstructions);
  const prelude = setups.flatMap((setup) => setup.prelude ?? []);
  const stored = setups.findLast((setup) => setup.history !== undefined)?.history ?? [];
  const history = await chooseHistory(runtimeHooks, { run: handle, stored, fallback: options.history ?? [] });
  return {
    caller: new ModelCaller(model, settings, definition.downloads),
    capabilities: modelCaps,
    structured,
    limits,
    modelTools,
    executor,
    hooks,
    instructions: instructions.length > 0 ? instructions : undefined,
    handle,
    settings,
    messages: settle || !userMessage ? [...prelude, ...history] : [...prelude, ...history, userMessage],
    prelude: new Set(prelude),
    initial: new Set([...prelude, ...history]),
    checkpoints: capabilities.filter((capability) => capability.checkpoint !== undefined),
    approvals,
    settle,
  };
}

/**
 * The instructions: the agent's own (text, or a function of the binding and
 * the prompt locals), then what capabilities add, except the instructions of
 * a capability whose prompt local the agent's instructions placed themselves.
 */
async function resolveInstructions(
  definition: Readonly<AgentDefinition>,
  binding: ToolBinding,
  setups: readonly CapabilitySetup[],
  arranged: ReadonlyArray<string | undefined>,
): Promise<string> {
  const values: Record<string, unknown> = {
    invocation: binding.run.invocation,
    run: binding.run,
    agent: binding.agent,
    skillsPrompt: '',
    ...Object.assign({}, ...setups.map((setup) => setup.promptLocals ?? {})),
  };
  const read = new Set<string>();
  const locals = {} as PromptLocals;
  for (const key of Object.keys(values)) {
    Object.defineProperty(locals, key, { enumerable: true, get: () => (read.add(key), values[key]) });
  }
  const own = typeof definition.instructions === 'function' ? await definition.instructions(binding, Object.freeze(locals)) : definition.instructions;
  const added = setups.filter((setup) => setup.instructionsLocal === undefined || !read.has(setup.instructionsLocal)).map((setup) => setup.instructions);
  return [own, ...added, ...arranged].filter((text): text is string => !!text).join('\n\n');
}

function resolveModel(definition: Readonly<AgentDefinition>, options: Readonly<AskOptions>): { model: LanguageModel; capabilities: ModelCapabilities } {
  const name = definition.model;
  const overrides = definition.modelCapabilities;
  if (typeof name !== 'string') return { model: name, capabilities: modelCapabilities(name, overrides) };
  const registry = options.models ?? definition.models;
  if (!registry) throw new ConfigurationError(`Agent ${definition.name} names the model ${name} but has no model registry`);
  const model = registry.resolve(name);
  return { model, capabilities: modelCapabilities(model, registry.capabilities?.(name), overrides) };
}

/** Settings with `maxOutputTokens` clamped to the model's ceiling, when the capabilities know it. */
function clampOutputTokens(settings: ModelSettings, capabilities: ModelCapabilities): ModelSettings {
  const ceiling = capabilities.maxOutputTokens;
  if (ceiling === undefined || settings.maxOutputTokens === undefined || settings.maxOutputTokens <= ceiling) return settings;
  return { ...settings, maxOutputTokens: ceiling };
}
