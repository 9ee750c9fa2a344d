import { describe, expect, it } from 'vitest';
import { RunFailedError } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import { planWorkflow, runWorkflow } from 'ghostlight/workflows';
import { createWorkflowAgent, formatDag, orderFollowUp, orderTools, workflowDemoPolicy } from '../../worker/demo-workflow';

describe('planned workflows with the offline demo model (the playground example)', () => {
  it('plans a DAG keylessly, runs the version twice, and fails with drift after a schema change', async () => {
    const version = await planWorkflow(orderFollowUp, { model: createOfflineDemoModel(), tools: orderTools(), strategy: 'provider' });
    expect(formatDag(version)).toBe(
      'level 1: lookupOrder [tool.call lookupOrder]\nlevel 2: customerProfile [tool.call customerProfile] ← lookupOrder  ·  shippingEstimate [tool.call shippingEstimate] ← lookupOrder',
    );
    expect(version.plan.steps[1]!.input).toEqual({ customerId: '{{ steps.lookupOrder.output.customerId }}' });
    for (const orderNumber of ['481', '482']) {
      const run = await runWorkflow(version, { orderNumber }, { tools: orderTools() });
      expect(run.status).toBe('completed');
      expect(run.output).toEqual({
        customerProfile: { customerId: `cust-${orderNumber}`, name: 'Ada Lovelace', tier: 'gold' },
        shippingEstimate: { orderNumber, arrives: 'Thursday' },
      });
    }
    const drifted = await runWorkflow(version, { orderNumber: '481' }, { tools: orderTools({ changed: true }) });
    expect(drifted.status).toBe('failed');
    expect((drifted.error as RunFailedError).causeCode).toBe('capability_drift');
    expect(drifted.error!.message).toBe(`Tool shippingEstimate no longer matches the capability snapshot of workflow version ${version.id}; plan the workflow again`);
  });

  it('runs the example agent: plan, two runs, a schema change, a drift failure', async () => {
    const agent = createWorkflowAgent(createOfflineDemoModel({ respond: workflowDemoPolicy }));
    const run = await agent.ask('Plan the follow-up workflow for order 481 and run it.');
    expect(run.outcome).toBe('completed');
    const results = run.steps.flatMap((step) => step.toolResults.map((result) => [result.toolName, result.content.split('\n', 1)[0]]));
    expect(results.map(([name]) => name)).toEqual(['plan_workflow', 'run_workflow', 'run_workflow', 'change_tool_schema', 'run_workflow']);
    expect(results[0]![1]).toMatch(/^Planned version sha256:[0-9a-f]{12}… \(one planner call\)$/);
    expect(results[1]![1]).toMatch(/^Run 1 of version sha256:[0-9a-f]{12}…, planner not called: completed: /);
    expect(results[2]![1]).toMatch(/^Run 2 of version sha256:[0-9a-f]{12}…, planner not called: completed: /);
    expect(results[4]![1]).toMatch(/^Run 3 of version sha256:[0-9a-f]{12}…, planner not called: failed \(capability_drift: Tool shippingEstimate no longer matches/);
    expect(run.response).toContain('the schema change made the third run fail');
  });
});
