import type { PlannedWorkflow } from './planned-workflow.ts';
import type { WorkflowVersion } from './workflow-version.ts';

/** The workflow an in-memory version was planned from (its inline tools), so `runWorkflow(version)` finds them. */
export const versionWorkflows = new WeakMap<WorkflowVersion, PlannedWorkflow>();
