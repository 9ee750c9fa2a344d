import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent, ProviderError } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AssemblyLimitError, AssemblyRoutingError, defineGraph, defineWorkflow, graphBuilder } from 'ghostlight/assemblies';
import type { GraphState } from 'ghostlight/assemblies';
import { lastUserText, respondingModel } from '../support/scripted-model';

/** An agent answering `<name>: <its input>`, that records what it was asked. */
function echo(name: string, options: { text?: string; delayMs?: number } = {}) {
  const inputs: string[] = [];
  const model = respondingModel((call) => {
    inputs.push(lastUserText(call));
    return { text: options.text ?? `${name}: ${lastUserText(call)}`, ...(options.delayMs ? { delayMs: options.delayMs } : {}) };
  });
  return Object.assign(defineAgent({ name, model }), { inputs });
}

const failing = (name: string) => defineAgent({ name, model: respondingModel(() => ({ error: new Error('down') })), settings: { maxRetries: 0 } });

async function collect(stream: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent[]> {
  const events: GhostlightEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('Graph (SPEC A15)', () => {
  it('routes by condition with an unconditional fallback, and passes the default downstream input', async () => {
    const triage = echo('triage', { text: 'billing' });
    const billing = echo('billing');
    const general = echo('general');
    const respond = echo('respond', { text: 'answered' });
    const graph = defineGraph({
      name: 'support_flow',
      nodes: { triage, billing, general, respond },
      start: 'triage',
      edges: [
        { from: 'triage', to: 'billing', if: (state) => state.result('triage')?.output === 'billing' },
        { from: 'triage', to: 'general' },
        { from: 'billing', to: 'respond' },
        { from: 'general', to: 'respond' },
      ],
      finish: 'respond',
    });
    const stream = graph.stream('Why was I charged twice?');
    const events = await collect(stream);
    const run = await stream.run;
    expect(run.response).toBe('answered');
    expect(run.trajectory.steps.map((step) => step.participant)).toEqual(['triage', 'billing', 'respond']);
    expect(billing.inputs).toEqual(['Original Task:\nWhy was I charged twice?\n\nInputs from previous nodes:\n\nFrom triage:\nbilling']);
    expect(general.inputs).toEqual([]);
    expect(events.filter((event) => event.type === 'assembly-transition').map((event) => [(event as { from: string }).from, (event as { to: string }).to])).toEqual([
      ['triage', 'billing'],
      ['billing', 'respond'],
    ]);
    // Only the finish node streams.
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('')).toBe('answered');
  });

  it('fails with AssemblyRoutingError when two conditional edges match, or none and no fallback', async () => {
    const nodes = { triage: echo('triage'), a: echo('a'), b: echo('b') };
    const both = defineGraph({
      name: 'ambiguous',
      nodes,
      start: 'triage',
      edges: [{ from: 'triage', to: 'a', if: () => true }, { from: 'triage', to: 'b', if: () => true }],
      finish: ['a', 'b'],
    });
    const run = await both.ask('x');
    expect(AssemblyRoutingError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo).toEqual({ name: 'AssemblyRoutingError', message: 'graph node "triage" matched more than one conditional edge' });
    const none = defineGraph({ name: 'none', nodes, start: 'triage', edges: [{ from: 'triage', to: 'a', if: () => false }, { from: 'triage', to: 'b', if: () => false }], finish: ['a', 'b'] });
    expect((await none.ask('x')).errorInfo?.message).toBe('graph node "triage" did not match an outgoing edge');
  });

  it('fans out to concurrent branches and fans in with every predecessor result, in declaration order', async () => {
    const triage = echo('triage', { text: 'transfer 481' });
    const ledger = echo('ledger', { text: 'The ledger entry is awaiting settlement.', delayMs: 20 });
    const policy = echo('policy', { text: 'Pending transfers usually settle within two business days.', delayMs: 20 });
    const respond = echo('respond', { text: 'done' });
    const graph = defineGraph({
      name: 'investigation',
      nodes: { triage, ledger, policy, respond },
      start: 'triage',
      edges: [
        { from: 'triage', to: 'ledger' },
        { from: 'triage', to: 'policy' },
        { from: 'ledger', to: 'respond' },
        { from: 'policy', to: 'respond' },
      ],
      finish: 'respond',
    });
    const stream = graph.stream('Why is transfer 481 pending?');
    const events = await collect(stream);
    const run = await stream.run;
    expect(run.response).toBe('done');
    expect(respond.inputs).toEqual([
      'Original Task:\nWhy is transfer 481 pending?\n\nInputs from previous nodes:\n\nFrom ledger:\nThe ledger entry is awaiting settlement.\n\nFrom policy:\nPending transfers usually settle within two business days.',
    ]);
    expect(ledger.inputs).toEqual(['Original Task:\nWhy is transfer 481 pending?\n\nInputs from previous nodes:\n\nFrom triage:\ntransfer 481']);
    const step = (name: string) => run.trajectory.find((candidate) => candidate.participant === name)!;
    expect(run.trajectory.concurrent(step('ledger').id, step('policy').id)).toBe(true);
    expect(run.trajectory.concurrent(step('triage').id, step('ledger').id)).toBe(false);
    expect(step('ledger').branchId).toBe('ledger');
    expect(step('respond').predecessorIds).toEqual(expect.arrayContaining([step('ledger').id, step('policy').id]));
    expect(events.find((event) => event.type === 'assembly-fork')).toMatchObject({ from: 'triage', branches: ['ledger', 'policy'] });
    expect(events.find((event) => event.type === 'assembly-join')).toMatchObject({ from: ['ledger', 'policy'], to: 'respond' });
  });

  it('bounds a fan-out with maxConcurrency (1 runs the branches one after the other)', async () => {
    const nodes = { start: echo('start'), ledger: echo('ledger', { delayMs: 5 }), policy: echo('policy', { delayMs: 5 }), end: echo('end') };
    const graph = defineGraph({
      name: 'serial',
      nodes,
      start: 'start',
      edges: [{ from: 'start', to: ['ledger', 'policy'], maxConcurrency: 1 }, { from: ['ledger', 'policy'], to: 'end' }],
      finish: 'end',
    });
    const run = await graph.ask('x');
    const step = (name: string) => run.trajectory.find((candidate) => candidate.participant === name)!;
    expect(run.trajectory.concurrent(step('ledger').id, step('policy').id)).toBe(false);
    expect(defineGraph({ name: 'd', nodes: { a: echo('a') }, start: 'a', finish: 'a' }).maxConcurrency).toBe(8);
  });

  it('gives mappers a frozen state; an edge mapper beats the node mapper', async () => {
    const states: GraphState[] = [];
    const triage = echo('triage', { text: 'route' });
    const target = echo('target');
    const g = defineGraph({
      name: 'mapped',
      nodes: { triage, target: { assembly: target, input: () => 'from the node mapper' } },
      start: 'triage',
      edges: [
        {
          from: 'triage',
          to: 'target',
          input: (state) => {
            states.push(state);
            return `edge mapper saw ${state.previousResult?.output as string}`;
          },
        },
      ],
      finish: 'target',
    });
    await g.ask('x', { context: { accountId: 'a1' } });
    expect(target.inputs).toEqual(['edge mapper saw route']);
    const [state] = states;
    expect(Object.isFrozen(state)).toBe(true);
    expect(Object.isFrozen(state!.results)).toBe(true);
    expect(Object.isFrozen(state!.results.triage)).toBe(true);
    expect(Object.isFrozen(state!.context)).toBe(true);
    expect(state).toMatchObject({ current: 'target', previous: 'triage', step: 2, text: 'x', context: { accountId: 'a1' } });
    expect(() => ((state!.results as Record<string, unknown>).triage = 1)).toThrow(TypeError);

    const nodeOnly = echo('node_only');
    await defineGraph({ name: 'node_mapped', nodes: { a: echo('a'), b: { assembly: nodeOnly, input: (s) => `node mapper: ${s.previous}` } }, start: 'a', edges: [{ from: 'a', to: 'b' }], finish: 'b' }).ask('x');
    expect(nodeOnly.inputs).toEqual(['node mapper: a']);
  });

  it('routes a failure through an error edge chosen by error name; the recovery node is told what failed', async () => {
    const recover = echo('recover');
    const graph = defineGraph({
      name: 'recovering',
      nodes: { fetch: failing('fetch'), recover },
      start: 'fetch',
      edges: [{ from: 'fetch', to: 'recover' }],
      errorEdges: [{ from: 'fetch', to: 'recover', on: ['ProviderError'] }],
      finish: 'recover',
    });
    const stream = graph.stream('x');
    const events = await collect(stream);
    const run = await stream.run;
    expect(run.outcome).toBe('completed');
    expect(recover.inputs).toEqual(['Original Task:\nx\n\nInputs from previous nodes:\n\nFrom fetch:\nFailed with ProviderError.']);
    expect(run.trajectory.steps.map((step) => [step.participant, step.status])).toEqual([
      ['fetch', 'failed'],
      ['recover', 'completed'],
    ]);
    expect(events.find((event) => event.type === 'assembly-transition')).toMatchObject({ from: 'fetch', to: 'recover', error: true });
    const unmatched = await defineGraph({ name: 'unmatched', nodes: { fetch: failing('fetch'), recover }, start: 'fetch', edges: [{ from: 'fetch', to: 'recover' }], errorEdges: [{ from: 'fetch', to: 'recover', on: ['ToolError'] }], finish: 'recover' }).ask('x');
    expect(unmatched.outcome).toBe('failed');
    expect(ProviderError.isInstance(unmatched.error)).toBe(true);
  });

  it('shares maxSteps across the whole run: a cycle ends with AssemblyLimitError', async () => {
    const graph = defineGraph({
      name: 'cycle',
      nodes: { draft: echo('draft'), review: echo('review', { text: 'again' }), done: echo('done') },
      start: 'draft',
      edges: [
        { from: 'draft', to: 'review' },
        { from: 'review', to: 'draft', if: (state) => state.result('review')?.output === 'again' },
        { from: 'review', to: 'done' },
      ],
      finish: 'done',
      maxSteps: 5,
    });
    const run = await graph.ask('x');
    expect(AssemblyLimitError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo?.message).toBe('cycle reached its maxSteps limit of 5');
    expect(run.trajectory.steps).toHaveLength(5);
    expect(graph.maxSteps).toBe(5);
    expect(defineGraph({ name: 'd', nodes: { a: echo('a') }, start: 'a', finish: 'a' }).maxSteps).toBe(20);
  });

  it('takes any assembly as a node', async () => {
    const inner = defineWorkflow({ name: 'inner', perform: (flow) => flow.invoke(echo('leaf')) });
    const run = await defineGraph({ name: 'outer', nodes: { first: echo('first', { text: 'one' }), nested: inner }, start: 'first', edges: [{ from: 'first', to: 'nested' }], finish: 'nested' }).ask('x');
    expect(run.response).toBe('leaf: Original Task:\nx\n\nInputs from previous nodes:\n\nFrom first:\none');
    const nested = run.trajectory.find((step) => step.participant === 'nested')!;
    expect(nested.kind).toBe('workflow');
    expect(run.trajectory.children(nested.id).map((step) => step.participant)).toEqual(['leaf']);
  });

  it('validates its routes when defined (ConfigurationError)', () => {
    const a = echo('a');
    const b = echo('b');
    const c = echo('c');
    const d = echo('d');
    const define = (spec: object) => () => defineGraph({ name: 'bad', nodes: { a, b, c, d }, start: 'a', finish: 'd', ...spec } as never);
    const chain = [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'd' }];
    expect(define({ edges: chain })).not.toThrow();
    expect(define({ edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'd' }, { from: 'c', to: 'd' }] })).toThrow('graph has unreachable node "c"');
    expect(define({ edges: chain, start: 'z' })).toThrow('graph start "z" is not declared');
    expect(define({ edges: [...chain, { from: 'a', to: 'z' }] })).toThrow('graph edge target "z" is not declared');
    expect(define({ edges: [...chain, { from: 'd', to: 'a' }] })).toThrow('graph finish node "d" cannot have outgoing edges');
    expect(define({ edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'd' }, { from: 'a', to: 'c', if: () => true }] })).toThrow('graph node "c" has no successful outgoing route');
    expect(define({ edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'a', to: 'd', if: () => true }, { from: 'b', to: 'd' }, { from: 'c', to: 'd' }] })).toThrow(
      'graph node "a" cannot mix conditional routes with inferred fan-out edges',
    );
    // Ambiguous joins: the branches never meet.
    expect(define({ nodes: { a, b, c }, finish: ['b', 'c'], edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }] })).toThrow(
      'graph fan-out at "a" has no unambiguous fan-in; declare an explicit array-source edge',
    );
    expect(define({ edges: [{ from: 'a', to: ['b', 'c'] }, { from: ['b', 'c'], to: 'd' }, { from: ['b', 'c'], to: 'd' }] })).toThrow('graph fan-out at "a" has more than one matching fan-in');
    expect(define({ edges: [...chain, { from: ['b', 'c'], to: 'd' }] })).toThrow('graph fan-in to "d" has no matching fan-out');
    expect(define({ edges: [{ from: 'a', to: ['b', 'c'] }, { from: 'a', to: 'd' }, { from: ['b', 'c'], to: 'd' }] })).toThrow('graph node "a" has more than one unconditional route');
    // Nested and overlapping parallel groups.
    const e = echo('e');
    const f = echo('f');
    const g = echo('g');
    expect(
      define({
        nodes: { a, b, c, d, e, f, g },
        finish: 'g',
        edges: [{ from: 'a', to: ['b', 'c'] }, { from: 'b', to: ['e', 'f'] }, { from: ['e', 'f'], to: 'd' }, { from: 'c', to: 'd' }, { from: 'd', to: 'g' }],
      }),
    ).toThrow(ConfigurationError);
    expect(
      define({
        nodes: { a, b, c, d, e },
        finish: 'e',
        edges: [{ from: 'a', to: ['b', 'c'] }, { from: 'd', to: ['b', 'c'] }, { from: ['b', 'c'], to: 'e' }],
      }),
    ).toThrow('graph fan-out branches overlap at "b"');
    // Edge shapes.
    expect(define({ edges: [{ from: ['a', 'b'], to: ['c', 'd'] }] })).toThrow('graph edges cannot use arrays for both source and target');
    expect(define({ edges: [{ from: ['b', 'c'], to: 'd', if: () => true }] })).toThrow('fan-in edges cannot be conditional');
    expect(define({ edges: [{ from: 'a', to: 'b', maxConcurrency: 2 }] })).toThrow('maxConcurrency is only valid for a fan-out edge');
    expect(define({ edges: chain, errorEdges: [{ from: 'a', to: 'd', on: [] }] })).toThrow('error edge on must list error names or be a predicate');
    expect(define({ edges: chain, nodes: { a, b, c, d: { assembly: d, retries: 2 } } })).toThrow('graph node "d": retryOn is required when retries is greater than 0');
  });

  it('renders its routes as Mermaid', () => {
    const graph = defineGraph({
      name: 'research',
      nodes: { plan: echo('plan'), research: echo('research'), verify: echo('verify'), answer: echo('answer'), fallback: echo('fallback'), 'check-in': echo('check') },
      start: 'plan',
      edges: [
        { from: 'plan', to: ['research', 'verify'] },
        { from: ['research', 'verify'], to: 'check-in' },
        { from: 'check-in', to: 'answer', if: () => true },
        { from: 'check-in', to: 'plan' },
        { from: 'fallback', to: 'research' },
      ],
      errorEdges: [{ from: 'research', to: 'fallback', on: ['ProviderError'] }],
      finish: 'answer',
    });
    expect(graph.toMermaid()).toBe(
      [
        'flowchart TD',
        '  n_plan[plan]',
        '  n_research[research]',
        '  n_verify[verify]',
        '  n_answer[answer]',
        '  n_fallback[fallback]',
        '  n_check_in[check-in]',
        '  START((start)) --> n_plan',
        '  n_answer --> FINISH((finish))',
        '  n_check_in -->|condition| n_answer',
        '  n_check_in --> n_plan',
        '  n_fallback --> n_research',
        '  n_research -.->|error| n_fallback',
        '  n_plan -->|fork| n_research',
        '  n_plan -->|fork| n_verify',
        '  n_research -->|join| n_check_in',
        '  n_verify -->|join| n_check_in',
      ].join('\n'),
    );
  });

  it('builds from a mutable builder; each build (and run) is a fixed copy', async () => {
    const builder = graphBuilder('support_flow').node('triage', echo('triage', { text: 't' })).node('respond', echo('respond', { text: 'r' })).start('triage').edge('triage', 'respond').finish('respond');
    const first = builder.build();
    builder.node('extra', echo('extra'));
    expect(() => builder.validate()).toThrow('graph node "extra" has no successful outgoing route');
    expect(first.nodes).toEqual(['triage', 'respond']);
    expect((await first.ask('x')).response).toBe('r');
  });

  it('rejects recursive definitions: a builder that contains itself, directly or through another', async () => {
    const self = graphBuilder('loop').node('me', echo('a')).start('me').finish('me');
    self.node('me', self);
    expect(() => self.build()).toThrow('Recursive assembly: graph loop contains itself (node "me")');
    const outer = graphBuilder('outer');
    const inner = graphBuilder('inner').node('back', outer).start('back').finish('back');
    outer.node('in', inner).start('in').finish('in');
    const run = await outer.ask('x');
    expect(run.outcome).toBe('failed');
    expect(ConfigurationError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).message).toBe('Recursive assembly: graph outer runs inside itself');
  });
});
