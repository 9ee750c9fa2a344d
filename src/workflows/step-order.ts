import type { WorkflowStep } from './plan-schema.ts';
import { WorkflowVersionError } from './workflow-errors.ts';

/** Step ids in a dependency order; throws `WorkflowVersionError` when the steps cannot be ordered. */
export function orderOf(steps: readonly WorkflowStep[]): string[] {
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
