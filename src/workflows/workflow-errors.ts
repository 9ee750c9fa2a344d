import { ConfigurationError } from '../error/configuration-error.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { MissingToolError } from '../tool/missing-tool-error.ts';

const missingMarker = errorMarker('WorkflowMissingToolError');
const compileMarker = errorMarker('WorkflowCompileError');
const versionMarker = errorMarker('WorkflowVersionError');

/**
 * A workflow names a tool that neither its own tools nor the run's registry has (seed 002). Raised when a
 * plan is compiled and when a run starts, before any step runs.
 *
 * @example
 * await runWorkflow(review, input, { tools: registry }); // rejects with WorkflowMissingToolError when `scoreCandidate` is absent
 */
export class WorkflowMissingToolError extends MissingToolError {
  readonly [missingMarker] = true;
  override readonly name = 'WorkflowMissingToolError';
  /** The workflow that names the tool. */
  readonly workflow: string;

  constructor(workflow: string, toolId: string) {
    super(toolId, { message: `Workflow ${workflow} names tool ${toolId}, which the run's tools do not have` });
    this.workflow = workflow;
  }

  /** Whether `error` is a WorkflowMissingToolError. */
  static override isInstance = markerGuard<WorkflowMissingToolError>(missingMarker);
}

/** Why a plan did not compile. */
export type WorkflowCompileCode =
  | 'invalid_plan'
  | 'duplicate_step'
  | 'unknown_step'
  | 'cycle'
  | 'unknown_tool'
  | 'bad_template'
  | 'hash_mismatch'
  | 'invalid_output_schema'
  | 'unsupported_sandbox_policy';

/**
 * A plan that cannot become a workflow version: its shape, an unknown tool or step, a dependency cycle, a
 * template that cannot resolve, a code file whose `sha256` does not match its content, an invalid output
 * schema, or a sandbox policy Ghostlight cannot enforce. `code` names which; `step` the step, when one.
 */
export class WorkflowCompileError extends ConfigurationError {
  readonly [compileMarker] = true;
  override readonly name = 'WorkflowCompileError';
  /** The kind of problem. */
  readonly code: WorkflowCompileCode;
  /** The step the problem is in, when it is in one. */
  readonly step: string | undefined;

  constructor(code: WorkflowCompileCode, message: string, options: { step?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.step = options.step;
  }

  /** Whether `error` is a WorkflowCompileError. */
  static override isInstance = markerGuard<WorkflowCompileError>(compileMarker);
}

/** A stored workflow version that is not one: wrong shape, or an id that does not match its content. */
export class WorkflowVersionError extends ConfigurationError {
  readonly [versionMarker] = true;
  override readonly name = 'WorkflowVersionError';

  /** Whether `error` is a WorkflowVersionError. */
  static override isInstance = markerGuard<WorkflowVersionError>(versionMarker);
}
