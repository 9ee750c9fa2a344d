import { describe, expect, it } from 'vitest';
import { defineAgent, InvocationError } from 'ghostlight';
import type { AgentStreamPayload, GhostlightEvent } from 'ghostlight';
import { AgUiEncoder } from 'ghostlight/ag-ui';
import { defineGraph, defineWorkflow } from 'ghostlight/assemblies';
import { lastUserText, respondingModel } from '../support/scripted-model';

const node = (name: string, text?: string) => defineAgent({ name, model: respondingModel((call) => ({ text: text ?? `${name}: ${lastUserText(call)}` })) });

async function collect(stream: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent[]> {
  const events: GhostlightEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('contextual agent-stream events of composites (SPEC A13)', () => {
  it('wrap every participant event with its source, before the ordinary event, by default', async () => {
    const graph = defineGraph({ name: 'pipeline', nodes: { draft: node('drafter', 'a draft'), edit: node('editor', 'Edited.') }, start: 'draft', edges: [{ from: 'draft', to: 'edit' }], finish: 'edit' });
    const events = await collect(graph.stream('Write it'));
    const wrappers = events.filter((event): event is GhostlightEvent & AgentStreamPayload => event.type === 'agent-stream');
    expect(new Set(wrappers.map((event) => event.source.agent))).toEqual(new Set(['drafter', 'editor']));
    const draftStart = wrappers.find((event) => event.source.agent === 'drafter' && event.event.type === 'invocation-start')!;
    expect(draftStart.input).toEqual({ role: 'user', content: 'Write it' });
    expect(draftStart.source.assemblyPath).toEqual([{ assembly: 'pipeline', assemblyKind: 'graph', participant: 'draft', stepId: expect.any(String) }]);
    expect(Object.isFrozen(draftStart.event)).toBe(true);
    // The intermediate node's text is only in wrappers; the answering node's arrives wrapped first, then ordinary.
    const deltas = events.filter((event) => event.type === 'text-delta' || (event.type === 'agent-stream' && event.event.type === 'text-delta'));
    expect(deltas.map((event) => (event.type === 'agent-stream' ? `wrapped ${(event.event as { text: string }).text}` : `plain ${(event as { text: string }).text}`))).toEqual([
      'wrapped a ',
      'wrapped draft',
      'wrapped Edited.',
      'plain Edited.',
    ]);
    // AG-UI ignores them.
    const encoder = new AgUiEncoder({ threadId: 't', runId: 'r' });
    expect(wrappers.flatMap((event) => encoder.encode(event))).toEqual([]);
  });

  it('carry the path of nested assemblies from the outside in, and are off with includeAgentEvents: false', async () => {
    const inner = defineWorkflow({ name: 'inner', perform: (flow) => flow.invoke(node('leaf'), { as: 'leaf_step' }) });
    const outer = defineWorkflow({ name: 'outer', perform: (flow) => flow.invoke(inner, { as: 'nested' }) });
    const events = await collect(outer.stream('x'));
    const wrapper = events.find((event): event is GhostlightEvent & AgentStreamPayload => event.type === 'agent-stream')!;
    expect(wrapper.source.agent).toBe('leaf');
    expect(wrapper.source.assemblyPath.map((step) => [step.assembly, step.participant])).toEqual([
      ['outer', 'nested'],
      ['inner', 'leaf_step'],
    ]);
    const quiet = await collect(outer.stream('x', { includeAgentEvents: false }));
    expect(quiet.filter((event) => event.type === 'agent-stream')).toEqual([]);
    expect(quiet.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(0);
    expect(() => outer.stream('x', { includeAgentEvents: 'yes' as never })).toThrow(InvocationError);
    expect(() => outer.stream('x', { includeAgentEvents: 'yes' as never })).toThrow('includeAgentEvents must be true or false');
  });
});
