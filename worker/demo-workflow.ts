import * as v from 'valibot';
import type { LanguageModel } from 'ai';
import { createToolRegistry, defineAgent, defineTool, RunFailedError } from 'ghostlight';
import type { Agent, Tool, ToolRegistry } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import { definePlannedWorkflow, planWorkflow, runWorkflow } from 'ghostlight/workflows';
import type { WorkflowRun, WorkflowVersion } from 'ghostlight/workflows';

/** The demo's planned workflow: three tools, no `perform`; a planner designs the plan. */
export const orderFollowUp = definePlannedWorkflow({
  name: 'order-follow-up',
  description: 'Look up an order, then fetch its customer and its shipping estimate.',
  input: v.strictObject({ orderNumber: v.string() }),
  output: v.record(v.string(), v.unknown()),
  tools: ['lookupOrder', 'customerProfile', 'shippingEstimate'],
});

/** The demo's tools; `changed` gives shippingEstimate a new required field (a schema change: drift). */
export function orderTools(options: { changed?: boolean } = {}): ToolRegistry {
  const lookupOrder = defineTool({
    name: 'lookupOrder',
    description: 'Look up an order by its number.',
    input: v.strictObject({ orderNumber: v.string() }),
    output: v.strictObject({ orderNumber: v.string(), customerId: v.string(), status: v.string() }),
    execute: ({ orderNumber }) => ({ orderNumber, customerId: `cust-${orderNumber}`, status: 'shipped' }),
  }) as Tool;
  const customerProfile = defineTool({
    name: 'customerProfile',
    description: 'Fetch a customer profile by customer id.',
    input: v.strictObject({ customerId: v.string() }),
    execute: ({ customerId }) => ({ customerId, name: 'Ada Lovelace', tier: 'gold' }),
  }) as Tool;
  const shippingEstimate = options.changed
    ? (defineTool({
        name: 'shippingEstimate',
        description: 'Estimate the delivery date of an order.',
        input: v.strictObject({ orderNumber: v.string(), express: v.boolean() }),
        execute: ({ orderNumber }) => ({ orderNumber, arrives: 'tomorrow' }),
      }) as Tool)
    : (defineTool({
        name: 'shippingEstimate',
        description: 'Estimate the delivery date of an order.',
        input: v.strictObject({ orderNumber: v.string() }),
        execute: ({ orderNumber }) => ({ orderNumber, arrives: 'Thursday' }),
      }) as Tool);
  return createToolRegistry({ lookupOrder, customerProfile, shippingEstimate });
}

/** The plan of a version as a DAG, one line per level: each step with the steps it needs. */
export function formatDag(version: WorkflowVersion): string {
  const level = new Map<string, number>();
  const steps = version.plan.steps;
  while (level.size < steps.length) {
    for (const step of steps) {
      const needs = step.needs ?? [];
      if (!level.has(step.id) && needs.every((need) => level.has(need))) level.set(step.id, 1 + Math.max(0, ...needs.map((need) => level.get(need)!)));
    }
  }
  const lines: string[] = [];
  for (let depth = 1; depth <= Math.max(...level.values()); depth++) {
    const here = steps.filter((step) => level.get(step.id) === depth);
    lines.push(`level ${depth}: ${here.map((step) => `${step.id} [${step.uses}${step.uses === 'tool.call' ? ` ${step.with.tool}` : ''}]${step.needs?.length ? ` ← ${step.needs.join(', ')}` : ''}`).join('  ·  ')}`);
  }
  return lines.join('\n');
}

/** One line about a run: its status, and for a failure the cause. */
export function describeRun(run: WorkflowRun): string {
  if (run.status === 'completed') return `completed: ${JSON.stringify(run.output)}`;
  const cause = RunFailedError.isInstance(run.error) ? `${run.error.causeCode}: ` : '';
  return `${run.status} (${cause}${run.error?.message ?? 'unknown'})`;
}

/**
 * An agent that demonstrates planned workflows with tools of its own: `plan_workflow` (the offline planner
 * designs a version and the card shows its DAG), `run_workflow` (runs the version, no planner call),
 * `change_tool_schema` (gives a tool a new required field). Run twice, change, run again: drift.
 */
export function createWorkflowAgent(model: LanguageModel): Agent {
  let version: WorkflowVersion | undefined;
  let tools = orderTools();
  let runs = 0;
  const planner = createOfflineDemoModel();
  const planTool = defineTool({
    name: 'plan_workflow',
    description: 'Plan the order follow-up workflow once with the planner model and show its plan as a DAG.',
    input: v.strictObject({}),
    async execute() {
      tools = orderTools();
      version = await planWorkflow(orderFollowUp, { model: planner, tools, strategy: 'provider' });
      runs = 0;
      return `Planned version ${version.id.slice(0, 19)}… (one planner call)\n${formatDag(version)}`;
    },
  });
  const runTool = defineTool({
    name: 'run_workflow',
    description: 'Run the planned workflow version for an order number (no planner call).',
    input: v.strictObject({ orderNumber: v.string() }),
    async execute({ orderNumber }, binding) {
      if (!version) return 'Plan the workflow first.';
      const run = await runWorkflow(version, { orderNumber }, { tools, signal: binding.signal });
      runs++;
      return `Run ${runs} of version ${version.id.slice(0, 19)}…, planner not called: ${describeRun(run)}\nsteps: ${run.steps.map((step) => `${step.id} ${step.status}`).join(', ')}`;
    },
  });
  const changeTool = defineTool({
    name: 'change_tool_schema',
    description: 'Change the input schema of the shippingEstimate tool (it now requires express).',
    input: v.strictObject({}),
    execute() {
      tools = orderTools({ changed: true });
      return 'shippingEstimate now requires { orderNumber: string, express: boolean }; the version still locks the old schema.';
    },
  });
  return defineAgent({
    name: 'workflow',
    model,
    instructions: 'Plan the workflow once, run it twice from the same version, change a tool schema, then run it again to show capability drift.',
    tools: [planTool, runTool, changeTool],
  });
}

const SEQUENCE = ['plan_workflow', 'run_workflow', 'run_workflow', 'change_tool_schema', 'run_workflow'] as const;

/** The offline model's policy for the workflow agent: the demo's five calls in order, then a summary. */
export function workflowDemoPolicy(request: DemoRequest): DemoTurn {
  const next = SEQUENCE[request.toolResults.length];
  if (next === undefined) {
    const last = request.toolResults.at(-1)?.content ?? '';
    return { text: `Planned once, ran twice from the same version, then the schema change made the third run fail: ${last.split('\n', 1)[0]}` };
  }
  const orderNumber = /\d+/.exec(request.userText)?.[0] ?? '481';
  return { toolCalls: [{ toolName: next, input: next === 'run_workflow' ? { orderNumber } : {} }] };
}
