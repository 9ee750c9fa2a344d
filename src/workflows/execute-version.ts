import { chainHooks } from '../agent/hooks.ts';
import { resolveLimits } from '../agent/limits.ts';
import { ToolExecutor } from '../agent/tool-executor.ts';
import { CancelledError, CleanupError, DeadlineExceededError } from '../error/control-errors.ts';
import { RunFailedError } from '../error/run-failed-error.ts';
import type { EventPayload } from '../events/events.ts';
import { snapshotGuard } from '../registry/capability-snapshot.ts';
import { RunTools } from '../tool/run-tools.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import type { Operation } from '../instrumentation/operation.ts';
import { abortReason, throwIfAborted } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { Semaphore } from '../util/semaphore.ts';
import type { PlannedWorkflow } from './planned-workflow.ts';
import type { WorkflowStep } from './plan-schema.ts';
import { runStep } from './run-step.ts';
import { resolveTemplate } from './templates.ts';
import type { WorkflowEvent, WorkflowRun, WorkflowRunStatus, WorkflowStepRecord } from './workflow-run.ts';
import type { WorkflowVersion } from './workflow-version.ts';
import type { McpGateway } from './mcp-gateway.ts';
import { checkDrift, checkInput, checkMcpDrift, checkOutput } from './run-checks.ts';
import { orderOf } from './step-order.ts';
import type { RunWorkflowOptions } from './run-workflow.ts';

/** The longest delay `setTimeout` takes (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/** How many steps run at once, at most. */
export const MAX_STEP_CONCURRENCY = 8;

/** Runs a resolved version: checks, the DAG of steps (at most `concurrency` at once), the output; always returns a run. */
export async function executeVersion(
  version: WorkflowVersion,
  workflow: PlannedWorkflow | undefined,
  tools: ReadonlyMap<string, Tool>,
  input: unknown,
  options: RunWorkflowOptions,
  concurrency: number,
  planned: boolean,
  operation: Operation | undefined,
  gateway: McpGateway | undefined,
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (deadline: number): void => {
    const left = deadline - Date.now();
    if (left <= 0) stopAtDeadline();
    else timer = setTimeout(() => arm(deadline), Math.min(left, MAX_TIMER_MS));
  };
  if (options.deadline !== undefined && !controller.signal.aborted) arm(options.deadline);
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
    ...(operation ? { operation } : {}),
  };
  emit({ type: 'workflow-start', versionId: version.id });
  let output: unknown;
  let error: Error | undefined;
  let runTools: RunTools | undefined;
  try {
    await checkInput(version, workflow, input);
    await checkDrift(version, tools);
    await checkMcpDrift(version, gateway, controller.signal);
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
          const stepOperation = operation?.start('workflow_step', { stepId: id, uses: step.uses });
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
              operation: stepOperation,
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
            stepOperation?.finish({ status: record.status }, record.status === 'failed' ? new Error(record.error) : undefined);
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
    errorInfo: error === undefined ? undefined : { type: error.name, message: error.message, ...(RunFailedError.isInstance(error) ? { causeCode: error.causeCode } : {}) },
    steps: steps.map((step) => records.get(step.id)!),
    events,
    startedAt,
    finishedAt: Date.now(),
  };
  await options.store?.save(run);
  return run;
}

function toolEvent(payload: EventPayload, emit: (event: Record<string, unknown>) => void): void {
  if (payload.type !== 'tool-start' && payload.type !== 'tool-stop') return;
  const stepId = payload.toolCallId.slice(0, payload.toolCallId.indexOf('#'));
  const common = { stepId, toolCallId: payload.toolCallId, toolName: payload.toolName, caller: payload.caller };
  emit(payload.type === 'tool-start' ? { type: 'tool-start', ...common } : { type: 'tool-stop', ...common, status: payload.status });
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
