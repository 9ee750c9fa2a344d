import type { LanguageModel } from 'ai';
import { chainHooks } from '../agent/hooks.ts';
import { resolveLimits } from '../agent/limits.ts';
import { ToolExecutor } from '../agent/tool-executor.ts';
import type { CodeEngine } from '../code-mode/code-engine.ts';
import type { CodeLimits } from '../code-mode/code-limits.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { CancelledError, CleanupError, DeadlineExceededError } from '../error/control-errors.ts';
import { RunFailedError } from '../error/run-failed-error.ts';
import type { EventPayload } from '../events/events.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import { snapshotGuard } from '../registry/capability-snapshot.ts';
import { descriptorHash } from '../registry/tool-descriptor.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import { validateJsonSchema } from '../schema/validate-json-schema.ts';
import type { ResultStrategy } from '../structured/result-schema.ts';
import { RunTools } from '../tool/run-tools.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import { abortReason, throwIfAborted } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { Semaphore } from '../util/semaphore.ts';
import { mcpGateway } from './mcp-gateway.ts';
import type { McpGateway, McpServerDeclaration } from './mcp-gateway.ts';
import { planWorkflow } from './plan-workflow.ts';
import type { PlannedWorkflow } from './planned-workflow.ts';
import { isPlannedWorkflow } from './planned-workflow.ts';
import type { WorkflowStep } from './plan-schema.ts';
import { runStep } from './run-step.ts';
import { resolveTemplate } from './templates.ts';
import { versionWorkflows } from './version-workflows.ts';
import type { WorkflowEvent, WorkflowRun, WorkflowRunStatus, WorkflowRunStore, WorkflowStepRecord } from './workflow-run.ts';
import { resolveWorkflowTools } from './workflow-tools.ts';
import type { RunToolsOption } from './workflow-tools.ts';
import { WorkflowVersionError } from './workflow-errors.ts';
import { isWorkflowVersion } from './workflow-version.ts';
import type { WorkflowVersion } from './workflow-version.ts';

/** The most steps that run at once (and the default). */
export const MAX_STEP_CONCURRENCY = 8;

/** Options of {@link runWorkflow}. */
export interface RunWorkflowOptions {
  /** The run's tools: a registry or a record by id (a workflow that names its tools takes them from here). */
  readonly tools?: RunToolsOption;
  /** MCP servers behind the gateway tools `mcp_list_tools`/`mcp_call_tool` (name them in the workflow's tools); the run opens and closes the connections. */
  readonly mcp?: { readonly servers: readonly McpServerDeclaration[]; readonly maxResultBytes?: number };
  /** The model of `ai.generate` steps, and the planner unless `planner` is given. */
  readonly model?: LanguageModel;
  /** The planner model, when a workflow (not a version) is run. */
  readonly planner?: LanguageModel;
  /** What the models can do, over the built-in table (needed for structured output from models it does not know). */
  readonly modelCapabilities?: ModelCapabilityOverrides;
  /** How the planner returns its plan (default `auto`). */
  readonly plannerStrategy?: ResultStrategy;
  /** The workflow of a version loaded from storage, when its tools are inline. */
  readonly workflow?: PlannedWorkflow;
  /** Cancels the run (it ends `cancelled`). */
  readonly signal?: AbortSignal;
  /** Epoch milliseconds after which the run is stopped (it ends `cancelled` with `DeadlineExceededError`). */
  readonly deadline?: number;
  /** Steps that run at once, 1–8 (default 8). */
  readonly concurrency?: number;
  /** Keeps the run (completed or failed) for inspection. */
  readonly store?: WorkflowRunStore;
  /** The code engine of `code.run` steps (default: code mode's). */
  readonly engine?: CodeEngine;
  /** Limits of `code.run` programs. */
  readonly codeLimits?: Partial<CodeLimits>;
  /** Application context for tools (`binding.run.invocation.context`). */
  readonly context?: Record<string, unknown>;
  /** The authenticated caller, for tools. */
  readonly actorId?: string;
}

/**
 * Runs a planned workflow. Given a workflow, it plans a fresh version first (one planner call, two with a
 * repair); given a {@link WorkflowVersion}, it reuses the plan and calls no planner. Steps run in dependency
 * order, independent ones concurrently (up to 8): `tool.call` through Ghostlight's tool executor
 * (validation, events, the version's capability snapshot), `ai.generate` with no tools, `code.run` in the
 * QuickJS sandbox with `tools` over the workflow's tools (`caller: "code"`). The output is checked against
 * the workflow's output schema.
 *
 * Every execution failure returns a run with status `failed` and a `RunFailedError` whose `causeCode` says
 * why (`capability_drift`, `step_failed`, `invalid_input`, `invalid_output`, `code_hash_mismatch`), saved to
 * `store` when one is given. Bad configuration throws before anything runs: `WorkflowMissingToolError`,
 * `WorkflowCompileError`, `ConfigurationError`.
 *
 * @example
 * const version = await planWorkflow(review, { model, tools });
 * const run = await runWorkflow(version, { jobId: 'j-7' }, { tools });
 * if (run.status === 'failed' && RunFailedError.isInstance(run.error) && run.error.causeCode === 'capability_drift') replan();
 */
export async function runWorkflow(target: PlannedWorkflow | WorkflowVersion, input: unknown, options: RunWorkflowOptions = {}): Promise<WorkflowRun> {
  const concurrency = options.concurrency ?? MAX_STEP_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_STEP_CONCURRENCY) {
    throw new ConfigurationError(`concurrency must be an integer from 1 to ${MAX_STEP_CONCURRENCY}`);
  }
  const gateway = options.mcp ? mcpGateway(options.mcp.servers, options.mcp.maxResultBytes === undefined ? {} : { maxResultBytes: options.mcp.maxResultBytes }) : undefined;
  try {
    return await runWithGateway(target, input, options, concurrency, gateway);
  } finally {
    await gateway?.close();
  }
}

async function runWithGateway(
  target: PlannedWorkflow | WorkflowVersion,
  input: unknown,
  options: RunWorkflowOptions,
  concurrency: number,
  gateway: McpGateway | undefined,
): Promise<WorkflowRun> {
  let version: WorkflowVersion;
  let workflow: PlannedWorkflow | undefined;
  const planned = isPlannedWorkflow(target);
  if (planned) {
    workflow = target;
    const planner = options.planner ?? options.model;
    if (!planner) throw new ConfigurationError(`Running workflow ${target.name} plans it first: pass a planner (or model)`);
    version = await planWorkflow(target, {
      model: planner,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(gateway ? { gateway } : {}),
      ...(options.modelCapabilities ? { modelCapabilities: options.modelCapabilities } : {}),
      ...(options.plannerStrategy ? { strategy: options.plannerStrategy } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } else if (isWorkflowVersion(target)) {
    version = target;
    workflow = options.workflow ?? versionWorkflows.get(target);
  } else {
    throw new ConfigurationError('runWorkflow takes a planned workflow or a workflow version');
  }
  orderOf(version.plan.steps);
  const tools = resolveWorkflowTools(version.workflow, workflow?.tools, options.tools, gateway?.tools ?? [], Object.keys(version.snapshot.tools));
  if (!options.model && version.plan.steps.some((step) => step.uses === 'ai.generate')) {
    throw new ConfigurationError(`Workflow ${version.workflow} has ai.generate steps: pass a model`);
  }
  return execute(version, workflow, tools, input, options, concurrency, planned);
}

async function execute(
  version: WorkflowVersion,
  workflow: PlannedWorkflow | undefined,
  tools: ReadonlyMap<string, Tool>,
  input: unknown,
  options: RunWorkflowOptions,
  concurrency: number,
  planned: boolean,
): Promise<WorkflowRun> {
  const runId = randomId();
  const startedAt = Date.now();
  const events: WorkflowEvent[] = [];
  const emit = (event: Record<string, unknown>): void => {
    events.push({ ...event, sequence: events.length, time: Date.now() } as unknown as WorkflowEvent);
  };
  const steps = version.plan.steps;
  const records = new Map<string, WorkflowStepRecord>(steps.map((step) => [step.id, { id: step.id, uses: step.uses, status: 'pending', toolCalls: [], modelCalls: 0 }]));
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort(abortReason(options.signal!));
  options.signal?.addEventListener('abort', stopOnAbort, { once: true });
  if (options.signal?.aborted) stopOnAbort();
  const pastDeadline = () => options.deadline !== undefined && Date.now() >= options.deadline;
  const stopAtDeadline = () => controller.abort(new DeadlineExceededError());
  if (pastDeadline()) stopAtDeadline();
  const timer = options.deadline === undefined || controller.signal.aborted ? undefined : setTimeout(stopAtDeadline, options.deadline - Date.now());
  const binding: ToolBinding = {
    run: {
      runId,
      invocation: Object.freeze({
        runId,
        sessionId: runId,
        actorId: options.actorId,
        context: Object.freeze({ ...options.context }),
        metadata: Object.freeze({ workflow: version.workflow, versionId: version.id }),
        deadline: options.deadline,
      }),
    },
    agent: { name: version.workflow },
    state: {},
    signal: controller.signal,
  };
  emit({ type: 'workflow-start', versionId: version.id });
  let output: unknown;
  let error: Error | undefined;
  let runTools: RunTools | undefined;
  try {
    await checkInput(version, workflow, input);
    await checkDrift(version, tools);
    runTools = await RunTools.resolve([...tools.values()], binding);
    const executor = new ToolExecutor({
      tools: runTools,
      binding,
      hooks: chainHooks(),
      limits: resolveLimits({ toolConcurrency: MAX_STEP_CONCURRENCY }),
      emit: (payload) => toolEvent(payload, emit),
      exclusiveLock: new Semaphore(1),
      guards: [snapshotGuard(version.snapshot)],
    });
    const outputs = new Map<string, unknown>();
    const scope = { input, outputs };
    const slots = new Semaphore(concurrency);
    const finished = new Map<string, Promise<void>>();
    let failure: unknown;
    for (const id of orderOf(steps)) {
      const step = steps.find((candidate) => candidate.id === id)!;
      const record = records.get(id)!;
      finished.set(id, (async () => {
        await Promise.all((step.needs ?? []).map((need) => finished.get(need)));
        if (failure !== undefined || controller.signal.aborted) {
          record.status = 'skipped';
          return;
        }
        await slots.run(async () => {
          if (pastDeadline() && !controller.signal.aborted) stopAtDeadline();
          if (failure !== undefined || controller.signal.aborted) {
            record.status = 'skipped';
            return;
          }
          record.status = 'running';
          record.startedAt = Date.now();
          emit({ type: 'step-start', stepId: id });
          try {
            const value = await runStep(step, record, {
              executor,
              tools,
              scope,
              signal: controller.signal,
              model: options.model,
              modelCapabilities: options.modelCapabilities,
              engine: options.engine,
              codeLimits: options.codeLimits,
            });
            outputs.set(id, value);
            record.output = value;
            record.status = 'completed';
          } catch (caught) {
            record.status = 'failed';
            record.error = firstLine(caught);
            if (failure === undefined) {
              failure = stepFailure(step, caught, controller.signal);
              controller.abort(failure);
            }
          } finally {
            record.finishedAt = Date.now();
            emit({ type: 'step-stop', stepId: id, status: record.status, ...(record.error === undefined ? {} : { error: record.error }) });
          }
        });
      })());
    }
    await Promise.all(finished.values());
    if (failure !== undefined) throw failure;
    throwIfAborted(controller.signal);
    output = version.plan.output === undefined ? outputs.get(orderOf(steps).at(-1)!) : resolveTemplate(version.plan.output, scope);
    await checkOutput(version, workflow, output);
  } catch (caught) {
    error = asRunError(caught, controller.signal);
    output = undefined;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener('abort', stopOnAbort);
    const failures = (await runTools?.close()) ?? [];
    if (failures.length > 0 && error === undefined) error = new CleanupError({ errors: failures, message: 'Closing the tools of the workflow run failed' });
  }
  const status: WorkflowRunStatus = error === undefined ? 'completed' : CancelledError.isInstance(error) || DeadlineExceededError.isInstance(error) ? 'cancelled' : 'failed';
  emit({ type: 'workflow-stop', status });
  const run: WorkflowRun = {
    id: runId,
    workflow: version.workflow,
    versionId: version.id,
    planned,
    status,
    input,
    output,
    error,
    steps: steps.map((step) => records.get(step.id)!),
    events,
    startedAt,
    finishedAt: Date.now(),
  };
  await options.store?.save(run);
  return run;
}

function orderOf(steps: readonly WorkflowStep[]): string[] {
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < steps.length) {
    const before = order.length;
    for (const step of steps) {
      if (!done.has(step.id) && (step.needs ?? []).every((need) => done.has(need))) {
        done.add(step.id);
        order.push(step.id);
      }
    }
    // Only a version that did not come from the compiler (loadWorkflowVersion, planWorkflow) can get here.
    if (order.length === before) throw new WorkflowVersionError('The workflow version has steps that depend on each other in a cycle or on unknown steps');
  }
  return order;
}

function toolEvent(payload: EventPayload, emit: (event: Record<string, unknown>) => void): void {
  if (payload.type !== 'tool-start' && payload.type !== 'tool-stop') return;
  const stepId = payload.toolCallId.slice(0, payload.toolCallId.indexOf('#'));
  const common = { stepId, toolCallId: payload.toolCallId, toolName: payload.toolName, caller: payload.caller };
  emit(payload.type === 'tool-start' ? { type: 'tool-start', ...common } : { type: 'tool-stop', ...common, status: payload.status });
}

async function checkDrift(version: WorkflowVersion, tools: ReadonlyMap<string, Tool>): Promise<void> {
  for (const [id, tool] of tools) {
    if ((await descriptorHash(tool)) !== version.snapshot.tools[id]) {
      throw new RunFailedError('capability_drift', `Tool ${id} no longer matches the capability snapshot of workflow version ${version.id}; plan the workflow again`);
    }
  }
}

async function checkInput(version: WorkflowVersion, workflow: PlannedWorkflow | undefined, input: unknown): Promise<void> {
  const issues = await issuesOf(workflow?.input, version.inputSchema, input, `The input schema of workflow ${version.workflow}`);
  if (issues.length > 0) throw new RunFailedError('invalid_input', `The workflow input does not match its schema: ${issues.slice(0, 5).join('; ')}`);
}

async function checkOutput(version: WorkflowVersion, workflow: PlannedWorkflow | undefined, output: unknown): Promise<void> {
  const issues = await issuesOf(workflow?.output, version.outputSchema, output, `The output schema of workflow ${version.workflow}`);
  if (issues.length > 0) throw new RunFailedError('invalid_output', `The workflow output does not match its schema: ${issues.slice(0, 5).join('; ')}`);
}

async function issuesOf(schema: object | undefined, jsonSchema: JsonSchema | null, value: unknown, what: string): Promise<string[]> {
  if (schema !== undefined) {
    const checked = await resolveSchema(schema, what).check(value);
    return checked.success ? [] : checked.issues;
  }
  return jsonSchema === null ? [] : validateJsonSchema(jsonSchema, value);
}

function stepFailure(step: WorkflowStep, caught: unknown, signal: AbortSignal): unknown {
  if (RunFailedError.isInstance(caught) || CancelledError.isInstance(caught) || DeadlineExceededError.isInstance(caught)) return caught;
  if (signal.aborted) return signal.reason;
  return new RunFailedError('step_failed', `Step ${step.id} (${step.uses}) failed: ${firstLine(caught)}`, { cause: caught });
}

function asRunError(caught: unknown, signal: AbortSignal): Error {
  if (caught instanceof Error) return caught;
  if (signal.aborted && signal.reason instanceof Error) return signal.reason;
  return new RunFailedError('step_failed', String(caught));
}

/** The first line of an error's message (a program's error carries its guest stack below). */
function firstLine(error: unknown): string {
  const message = (error as Error | undefined)?.message ?? String(error);
  return message.split('\n', 1)[0]!;
}
