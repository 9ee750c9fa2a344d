import { createWorkflowAgent, workflowDemoPolicy } from '../../../worker/demo-workflow';
import type { ExampleAgent } from './example';

/** Planned workflows: plan once, run a pinned version twice, then a tool's schema changes and the run fails with drift. */
export const workflowExample: ExampleAgent = {
  respond: workflowDemoPolicy,
  create: (model) => createWorkflowAgent(model),
};
