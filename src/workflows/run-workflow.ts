import type { LanguageModel } from 'ai';
import type { CodeEngine } from '../code-mode/code-engine.ts';
import type { CodeLimits } from '../code-mode/code-limits.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import type { ResultStrategy } from '../structured/result-schema.ts';
import { mcpGateway } from './mcp-gateway.ts';
import type { McpGateway, McpServerDeclaration } from './mcp-gateway.ts';
import { planWorkflow } from './plan-workflow.ts';
import type { PlannedWorkflow } from './planned-workflow.ts';
import { isPlannedWorkflow } from './planned-workflow.ts';
import { versionWorkflows } from './version-workflows.ts';
import type { WorkflowRun, WorkflowRunStore } from './workflow-run.ts';
import { resolveWorkflowTools } from './workflow-tools.ts';
import type { RunToolsOption } from './workflow-tools.ts';
import { isWorkflowVersion } from './workflow-version.ts';
import type { WorkflowVersion } from './workflow-version.ts';
import { executeVersion, MAX_STEP_CONCURRENCY } from './execute-version.ts';
import { orderOf } from './step-order.ts';

export { MAX_STEP_CONCURRENCY };

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
  /**
   * Reports the run's operations: `workflow`, then a `workflow_step` per step, with the steps' `tool` calls and
   * model runs (planner, `ai.generate`) nested inside.
   */
  readonly instrumentation?: Instrumentation;
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
  const name = isPlannedWorkflow(target) ? target.name : (target as WorkflowVersion).workflow;
  const operation = options.instrumentation?.active ? options.instrumentation.start('workflow', { workflow: name }, { content: { input } }) : undefined;
  let run: WorkflowRun | undefined;
  let thrown: unknown;
  try {
    run = await runWithGateway(target, input, options, concurrency, gateway, operation);
    return run;
  } catch (error) {
    thrown = error;
    throw error;
  } finally {
    try {
      await gateway?.close();
    } finally {
      operation?.finish(run ? { status: run.status, versionId: run.versionId, planned: run.planned } : {}, thrown ?? run?.error, { output: run?.output });
    }
  }
}

async function runWithGateway(
  target: PlannedWorkflow | WorkflowVersion,
  input: unknown,
  options: RunWorkflowOptions,
  concurrency: number,
  gateway: McpGateway | undefined,
  operation: Operation | undefined,
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
      ...(operation ? { parentOperation: operation } : {}),
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
  return executeVersion(version, workflow, tools, input, options, concurrency, planned, operation, gateway);
}
