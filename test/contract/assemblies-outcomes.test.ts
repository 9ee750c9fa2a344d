import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, defineAgent } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { defineGraph, defineSwarm, defineWorkflow, HANDOFF_TOOL_NAME } from 'ghostlight/assemblies';
import type { AssemblyRun } from 'ghostlight/assemblies';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

/** An agent answering `<name>: <its input>` at once. */
const echo = (name: string) => defineAgent({ name, model: respondingModel((call) => ({ text: `${name}: ${lastUserText(call)}` })) });
/** An agent that streams some text, then waits (honouring the abort) far longer than any test runs: the run deadline cuts it off. */
const stalled = (name: string) => defineAgent({ name, model: respondingModel(() => ({ text: `${name} cut off`, delayMs: 60_000 })) });
/** A deadline far enough away for the quick steps to finish first; the stalled step then waits for it. No timing is asserted. */
const deadline = () => Date.now() + 1_000;

async function collect(stream: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent[]> {
  const events: GhostlightEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function expectPartial(run: AssemblyRun, response: string): void {
  expect(run.outcome).toBe('partial');
  expect(run.response).toBe(response);
  expect(DeadlineExceededError.isInstance(run.error)).toBe(true);
  expect(run.errorInfo).toEqual({ name: 'DeadlineExceededError', message: (run.error as Error).message });
}

describe('Assembly outcomes at the deadline (SPEC A15/A22)', () => {
  it('a workflow ends partial with the latest completed participant text, in the run and its run-partial event', async () => {
    const workflow = defineWorkflow({
      name: 'respond',
      perform: async (flow) => {
        await flow.invoke(echo('research')).output;
        await flow.invoke(echo('verify')).output;
        return flow.invoke(stalled('writer'));
      },
    });
    const stream = workflow.stream('transfer 481', { deadline: deadline() });
    const events = await collect(stream);
    const run = await stream.run;
    expectPartial(run, 'verify: transfer 481');
    expect(run.trajectory.steps.map((step) => [step.participant, step.status])).toEqual([
      ['research', 'completed'],
      ['verify', 'completed'],
      ['writer', 'failed'],
    ]);
    const terminal = events.at(-1)!;
    expect(terminal).toMatchObject({ type: 'run-partial', outcome: 'partial', response: 'verify: transfer 481', error: run.errorInfo });
  });

  it('a graph ends partial with the text of the node that completed last, not the cut-off node', async () => {
    const graph = defineGraph({
      name: 'pipeline',
      nodes: { draft: echo('draft'), review: stalled('review') },
      start: 'draft',
      edges: [{ from: 'draft', to: 'review' }],
      finish: 'review',
    });
    const run = await graph.ask('release note', { deadline: deadline() });
    expectPartial(run, 'draft: release note');
  });

  it('a nested composite that ended partial passes its latest completed text up', async () => {
    const inner = defineWorkflow({
      name: 'inner',
      perform: async (flow) => {
        await flow.invoke(echo('leaf')).output;
        return flow.invoke(stalled('slow'));
      },
    });
    const outer = defineWorkflow({ name: 'outer', perform: (flow) => flow.invoke(inner) });
    const run = await outer.ask('x', { deadline: deadline() });
    expectPartial(run, 'leaf: x');
  });

  it('is empty when no step completed, and a swarm handoff is not an answer (its text stays hidden)', async () => {
    const alone = await defineWorkflow({ name: 'alone', perform: (flow) => flow.invoke(stalled('slow')) }).ask('x', { deadline: deadline() });
    expectPartial(alone, '');
    const triage = defineAgent({ name: 'triage', model: scriptedModel([{ text: 'Let me route this.', toolCalls: [{ name: HANDOFF_TOOL_NAME, input: { agent_id: 'billing', message: 'charged twice' } }] }]) });
    const swarm = defineSwarm({ name: 'support', members: { triage, billing: stalled('billing') }, start: 'triage', handoffs: { triage: ['billing'] } });
    const run = await swarm.ask('Why was I charged twice?', { deadline: deadline() });
    expectPartial(run, '');
    expect(run.trajectory.steps.map((step) => [step.participant, step.status])).toEqual([
      ['triage', 'completed'],
      ['billing', 'failed'],
    ]);
  });

  it('a cancelled composite still answers with an empty response', async () => {
    const controller = new AbortController();
    const workflow = defineWorkflow({
      name: 'cancellable',
      perform: async (flow) => {
        await flow.invoke(echo('research')).output;
        controller.abort();
        return flow.invoke(stalled('writer'));
      },
    });
    const run = await workflow.ask('x', { signal: controller.signal, deadline: deadline() });
    expect(run.outcome).toBe('cancelled');
    expect(run.response).toBe('');
  });
});
