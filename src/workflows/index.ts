/**
 * Planned workflows (seed 002, Little Workflow's runWorkflow): a planner model designs a plan once from a
 * workflow's description, schemas and tools; the plan compiles into an immutable, storable
 * {@link WorkflowVersion} whose tools are locked by a capability snapshot; runs execute its steps
 * (`tool.call`, `ai.generate`, `code.run`) with no model in the loop where none is needed.
 *
 * @module ghostlight/workflows
 */
export { definePlannedWorkflow, isPlannedWorkflow } from './planned-workflow.ts';
export type { PlannedWorkflow, PlannedWorkflowSpec, WorkflowTools } from './planned-workflow.ts';
export { WorkflowPlanSchema, workflowPlanJsonSchema, STEP_ID_PATTERN } from './plan-schema.ts';
export type { SandboxPolicy, WorkflowPlan, WorkflowStep, WorkflowStepKind } from './plan-schema.ts';
export { compilePlan, fileHash } from './compile-plan.ts';
export type { CompiledPlan } from './compile-plan.ts';
export { planWorkflow, compileWorkflow } from './plan-workflow.ts';
export type { PlanWorkflowOptions } from './plan-workflow.ts';
export { runWorkflow, MAX_STEP_CONCURRENCY } from './run-workflow.ts';
export type { RunWorkflowOptions } from './run-workflow.ts';
export { loadWorkflowVersion, isWorkflowVersion } from './workflow-version.ts';
export type { WorkflowVersion } from './workflow-version.ts';
export { memoryWorkflowRunStore } from './workflow-run.ts';
export type {
  WorkflowErrorInfo,
  WorkflowEvent,
  WorkflowRun,
  WorkflowRunStatus,
  WorkflowRunStore,
  WorkflowStepRecord,
  WorkflowStepStatus,
  WorkflowToolCall,
} from './workflow-run.ts';
export { mcpGateway } from './mcp-gateway.ts';
export type { McpGateway, McpGatewayOptions, McpServerDeclaration } from './mcp-gateway.ts';
export type { McpServerListing } from './mcp-listing.ts';
export { WorkflowCompileError, WorkflowMissingToolError, WorkflowVersionError } from './workflow-errors.ts';
export type { WorkflowCompileCode } from './workflow-errors.ts';
export type { RunToolsOption } from './workflow-tools.ts';
