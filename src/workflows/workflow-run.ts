import type { Artifact } from '../content/artifact.ts';
import type { ToolCaller } from '../tool/tool-binding.ts';
import type { WorkflowStepKind } from './plan-schema.ts';

/** How a step went. */
export type WorkflowStepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped';

/** One tool call a step made: the tool, who called it (`application` for `tool.call`, `code` for `code.run`), how it went. */
export interface WorkflowToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly caller: ToolCaller;
  readonly status: 'success' | 'error';
  readonly input: unknown;
  readonly value: unknown;
  readonly content: string;
  readonly artifacts: readonly Artifact[];
}

/** The record of one step of a run. */
export interface WorkflowStepRecord {
  readonly id: string;
  readonly uses: WorkflowStepKind;
  status: WorkflowStepStatus;
  /** Epoch milliseconds. */
  startedAt?: number;
  finishedAt?: number;
  /** The step's resolved input. */
  input?: unknown;
  output?: unknown;
  /** The error message of a failed step. */
  error?: string;
  toolCalls: WorkflowToolCall[];
  /** Model calls the step made (`ai.generate`: one, two with a repair turn). */
  modelCalls: number;
}

/** One entry of a run's event log. */
export type WorkflowEvent =
  | { readonly type: 'workflow-start'; readonly sequence: number; readonly time: number; readonly versionId: string }
  | { readonly type: 'step-start'; readonly sequence: number; readonly time: number; readonly stepId: string }
  | { readonly type: 'step-stop'; readonly sequence: number; readonly time: number; readonly stepId: string; readonly status: WorkflowStepStatus; readonly error?: string }
  | { readonly type: 'tool-start'; readonly sequence: number; readonly time: number; readonly stepId: string; readonly toolCallId: string; readonly toolName: string; readonly caller: ToolCaller }
  | {
      readonly type: 'tool-stop';
      readonly sequence: number;
      readonly time: number;
      readonly stepId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly caller: ToolCaller;
      readonly status: 'success' | 'error';
    }
  | { readonly type: 'workflow-stop'; readonly sequence: number; readonly time: number; readonly status: WorkflowRunStatus };

/** A run's error as plain JSON. */
export interface WorkflowErrorInfo {
  /** The error class (`RunFailedError`, `CancelledError`, …). */
  readonly type: string;
  readonly message: string;
  /** A `RunFailedError`'s cause code. */
  readonly causeCode?: string;
}

/** How a run ended. */
export type WorkflowRunStatus = 'completed' | 'failed' | 'cancelled';

/**
 * One run of a workflow version: what ran, in what order, with what inputs and outputs, and how it ended.
 * A failed run is returned (and saved to the run store), never thrown away.
 */
export interface WorkflowRun {
  /** The run's id. */
  readonly id: string;
  /** The workflow's name. */
  readonly workflow: string;
  /** The version that ran. */
  readonly versionId: string;
  /** Whether this run planned its version (given a workflow) or reused one (given a version). */
  readonly planned: boolean;
  readonly status: WorkflowRunStatus;
  readonly input: unknown;
  /** The checked output of a completed run. */
  readonly output: unknown;
  /** Why the run failed or was cancelled (`RunFailedError` with a `causeCode`, or a control error). */
  readonly error: Error | undefined;
  /** The error as JSON, for a store that keeps runs as JSON. */
  readonly errorInfo: WorkflowErrorInfo | undefined;
  /** The steps in plan order. */
  readonly steps: readonly WorkflowStepRecord[];
  readonly events: readonly WorkflowEvent[];
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** Where runs are kept for inspection (failed ones included). */
export interface WorkflowRunStore {
  readonly version: 'workflow-run-store-v1';
  save(run: WorkflowRun): Promise<void>;
  get(id: string): Promise<WorkflowRun | undefined>;
}

/**
 * An in-memory run store keeping the latest `limit` runs (default 100).
 *
 * @example
 * const runs = memoryWorkflowRunStore();
 * const run = await runWorkflow(version, input, { tools, store: runs });
 * await runs.get(run.id); // the same run, also when it failed
 */
export function memoryWorkflowRunStore(options: { limit?: number } = {}): WorkflowRunStore & { ids(): string[] } {
  const limit = options.limit ?? 100;
  const runs = new Map<string, WorkflowRun>();
  return {
    version: 'workflow-run-store-v1',
    async save(run) {
      runs.delete(run.id);
      runs.set(run.id, run);
      while (runs.size > limit) runs.delete(runs.keys().next().value!);
    },
    async get(id) {
      return runs.get(id);
    },
    ids: () => [...runs.keys()],
  };
}
