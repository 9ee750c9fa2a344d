import { describe, expect, it } from 'vitest';
import { asTool, ConfigurationError, defineAgent, ProtocolError } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AssemblyLimitError, defineSwarm, defineWorkflow, HANDOFF_TOOL_NAME, MAX_STEP_EVENTS } from 'ghostlight/assemblies';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

const handoff = (agentId: string, message: string, context?: object) => ({ name: HANDOFF_TOOL_NAME, input: { agent_id: agentId, message, ...(context ? { context } : {}) } });
const answer = (name: string) => defineAgent({ name, model: respondingModel((call) => ({ text: `${name}: ${lastUserText(call)}` })) });

async function collect(stream: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent[]> {
  const events: GhostlightEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('Swarm (SPEC A15)', () => {
  it('hands off along declared routes; the next member gets "Handoff from X" with the JSON context; intermediate text stays hidden', async () => {
    const triageModel = scriptedModel([{ text: 'Let me route this.', toolCalls: [handoff('billing', 'Customer was charged twice', { invoice: 'inv_1' })] }]);
    const triage = defineAgent({ name: 'triage', model: triageModel });
    const billingModel = respondingModel((call) => ({ text: `Refund issued. (${lastUserText(call)})` }));
    const billing = defineAgent({ name: 'billing', model: billingModel });
    const swarm = defineSwarm({ name: 'support', members: { triage, billing }, start: 'triage', handoffs: { triage: ['billing'] } });
    const stream = swarm.stream('Why was I charged twice?');
    const events = await collect(stream);
    const run = await stream.run;
    const expectedInput = 'Handoff from triage:\nCustomer was charged twice\n\nAdditional context supplied by the previous agent:\n{"invoice":"inv_1"}';
    expect(run.response).toBe(`Refund issued. (${expectedInput})`);
    const text = events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('');
    expect(text).toBe(run.response);
    expect(text).not.toContain('Let me route this');
    expect(events.filter((event) => event.type === 'tool-start')).toEqual([]);
    expect(events.find((event) => event.type === 'assembly-transition')).toMatchObject({ assembly: 'support', assemblyKind: 'swarm', from: 'triage', to: 'billing', handoff: true, step: 1 });
    // The handoff tool offers exactly the declared targets; the last member has none.
    const offered = triageModel.calls[0]!.tools!.find((tool) => tool.name === HANDOFF_TOOL_NAME) as { inputSchema: { properties: { agent_id: { enum: string[] } } }; description: string };
    expect(offered.inputSchema.properties.agent_id.enum).toEqual(['billing']);
    expect(offered.description).toBe('Hand the request to one available swarm member: billing');
    expect(billingModel.calls[0]!.tools ?? []).toEqual([]);
    // The trajectory keeps the handoff, not the hidden text.
    expect(run.trajectory.steps.map((step) => [step.participant, step.status, step.output])).toEqual([
      ['triage', 'completed', { agentId: 'billing', message: 'Customer was charged twice', context: { invoice: 'inv_1' } }],
      ['billing', 'completed', run.response],
    ]);
    expect(run.trajectory.transitions()).toEqual([[run.trajectory.steps[0]!.id, run.trajectory.steps[1]!.id]]);
  });

  it('without handoffs lets every member hand off to every other, and describes members', async () => {
    const aModel = scriptedModel([{ toolCalls: [handoff('c', 'go')] }]);
    const swarm = defineSwarm({
      name: 'open',
      members: { a: { agent: defineAgent({ name: 'a', model: aModel }), description: 'starts' }, b: { agent: answer('b'), description: 'answers billing' }, c: answer('c') },
      start: 'a',
    });
    const run = await swarm.ask('x');
    expect(run.response).toBe('c: Handoff from a:\ngo');
    const offered = aModel.calls[0]!.tools!.find((tool) => tool.name === HANDOFF_TOOL_NAME) as { inputSchema: { properties: { agent_id: { enum: string[] } } }; description: string };
    expect(offered.inputSchema.properties.agent_id.enum).toEqual(['b', 'c']);
    expect(offered.description).toBe('Hand the request to one available swarm member: b: answers billing; c');
  });

  it('refuses an undeclared target at the tool (the model sees a validation error and can choose again)', async () => {
    const model = scriptedModel([{ toolCalls: [handoff('account', 'x')] }, { toolCalls: [handoff('billing', 'y')] }]);
    const swarm = defineSwarm({
      name: 'routes',
      members: { triage: defineAgent({ name: 'triage', model }), billing: answer('billing'), account: answer('account') },
      start: 'triage',
      handoffs: { triage: ['billing'], billing: ['triage'] },
    });
    const run = await swarm.ask('x');
    expect(run.response).toBe('billing: Handoff from triage:\ny');
    const rejected = model.calls[1]!.prompt.find((message) => message.role === 'tool');
    expect(JSON.stringify(rejected)).toContain('error');
  });

  it('fails with AssemblyLimitError past maxHandoffRepeats for one directed pair', async () => {
    const bounce = (to: string) => defineAgent({ name: `to_${to}`, model: respondingModel(() => ({ toolCalls: [handoff(to, 'again')] })) });
    const swarm = defineSwarm({ name: 'pingpong', members: { a: bounce('b'), b: bounce('a') }, start: 'a', maxHandoffRepeats: 2 });
    const stream = swarm.stream('x');
    const events = await collect(stream);
    const run = await stream.run;
    expect(run.outcome).toBe('failed');
    expect(AssemblyLimitError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo).toEqual({ name: 'AssemblyLimitError', message: 'swarm repeated handoff "a" -> "b" too many times' });
    expect(events.find((event) => event.type === 'assembly-handoff-loop')).toMatchObject({ from: 'a', to: 'b', count: 3 });
    expect(run.trajectory.steps).toHaveLength(5);
    const defaults = defineSwarm({ name: 'defaults', members: { a: bounce('b'), b: bounce('a') }, start: 'a' });
    expect(defaults.maxHandoffRepeats).toBe(3);
    expect(defaults.maxSteps).toBe(20);
    expect((await defaults.ask('x')).errorInfo?.message).toBe('swarm repeated handoff "a" -> "b" too many times');
  });

  it('fails with AssemblyLimitError at maxSteps', async () => {
    const bounce = (to: string) => defineAgent({ name: `to_${to}`, model: respondingModel(() => ({ toolCalls: [handoff(to, 'again')] })) });
    const run = await defineSwarm({ name: 'short', members: { a: bounce('b'), b: bounce('a') }, start: 'a', maxSteps: 3 }).ask('x');
    expect(run.errorInfo).toEqual({ name: 'AssemblyLimitError', message: 'short reached its maxSteps limit of 3' });
  });

  it('a handoff must be the only tool call of its response; two handoffs in one response are a ProtocolError', async () => {
    const lookup = { name: 'lookup', description: 'Look up.', input: { type: 'object', properties: {} }, execute: () => 'found' };
    const { defineTool } = await import('ghostlight');
    const model = scriptedModel([{ toolCalls: [handoff('b', 'x'), { name: 'lookup', input: {} }] }, { toolCalls: [handoff('b', 'alone')] }]);
    const run = await defineSwarm({ name: 'only', members: { a: defineAgent({ name: 'a', model, tools: [defineTool(lookup)] }), b: answer('b') }, start: 'a' }).ask('x');
    expect(run.response).toBe('b: Handoff from a:\nalone');
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain('An assembly transition must be the only tool call in a model response');
    const twice = await defineSwarm({
      name: 'twice',
      members: { a: defineAgent({ name: 'a', model: scriptedModel([{ toolCalls: [handoff('b', 'x'), handoff('b', 'y')] }]) }), b: answer('b') },
      start: 'a',
    }).ask('x');
    expect(ProtocolError.isInstance(twice.error)).toBe(true);
    expect((twice.error as Error).message).toBe('Multiple assembly transitions were requested in one agent turn');
  });

  it('members see the caller history and context only when they opt in', async () => {
    const seen: unknown[] = [];
    const probe = (name: string, reply: () => object) =>
      defineAgent({
        name,
        model: respondingModel((call) => {
          seen.push({ name, users: call.prompt.filter((message) => message.role === 'user').length });
          return reply();
        }),
        runtimeHooks: [{ prepareRun: ({ run }) => void seen.push({ name, context: run.invocation.context }) }],
      });
    const swarm = defineSwarm({
      name: 'scoped',
      members: { a: probe('a', () => ({ toolCalls: [handoff('b', 'go')] })), b: { agent: probe('b', () => ({ text: 'ok' })), history: true, context: true } },
      start: 'a',
    });
    await swarm.ask('now', { history: [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'ok' }], context: { accountId: 'a1' } });
    expect(seen).toEqual([
      { name: 'a', context: {} },
      { name: 'a', users: 1 },
      { name: 'b', context: { accountId: 'a1' } },
      { name: 'b', users: 2 },
    ]);
  });

  it('checks its topology (ConfigurationError)', () => {
    const a = answer('a');
    const b = answer('b');
    const attempt = (spec: object) => () => defineSwarm({ name: 'bad', members: { a, b }, start: 'a', ...spec } as never);
    expect(attempt({ members: { a } })).toThrow('swarm must declare at least two members');
    expect(attempt({ start: undefined })).toThrow('swarm must declare a start member');
    expect(attempt({ start: 'z' })).toThrow('swarm start member "z" is not declared');
    expect(attempt({ handoffs: { z: ['a'] } })).toThrow('swarm handoff source "z" is not declared');
    expect(attempt({ handoffs: { a: ['z'] } })).toThrow('swarm handoff target "z" is not declared');
    expect(attempt({ handoffs: { a: ['a'] } })).toThrow('swarm member "a" cannot hand off to itself');
    expect(attempt({ handoffs: { a: ['b', 'b'] } })).toThrow('handoff targets must be unique');
    expect(attempt({ handoffs: { a: [] } })).toThrow('handoff requires at least one target');
    expect(attempt({ members: { a, b: defineWorkflow({ name: 'w', perform: (flow) => flow.invoke(a) }) } })).toThrow('swarm members must be Agent definitions');
    expect(attempt({ maxSteps: 0 })).toThrow('maxSteps must be at least 1');
    expect(attempt({ maxHandoffRepeats: 0 })).toThrow('maxHandoffRepeats must be at least 1');
    expect(attempt({ members: { a, b: { agent: b, retries: 1 } } })).toThrow(ConfigurationError);
    expect(attempt({ members: { a, b: { agent: b, retries: 1 } } })).toThrow('swarm member "b": retryOn is required when retries is greater than 0');
  });

  it('bounds each member step to 10,000 events (AssemblyLimitError)', async () => {
    const words = Array.from({ length: MAX_STEP_EVENTS + 1 }, (_, index) => `w${index}`).join(' ');
    const chatty = defineAgent({ name: 'chatty', model: scriptedModel([{ text: words }]) });
    const run = await defineSwarm({ name: 'bounded', members: { chatty, other: answer('other') }, start: 'chatty' }).ask('x');
    expect(run.outcome).toBe('failed');
    expect(run.errorInfo).toEqual({ name: 'AssemblyLimitError', message: 'assembly step emitted too many events' });
  });

  it('is a tool like any assembly', async () => {
    const swarm = defineSwarm({ name: 'desk', members: { a: defineAgent({ name: 'a', model: scriptedModel([{ toolCalls: [handoff('b', 'q')] }]) }), b: answer('b') }, start: 'a' });
    const lead = defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'desk', input: { input: 'q' } }] }, { text: 'done' }]), tools: [asTool(swarm)] });
    const run = await lead.ask('x');
    expect(run.steps[0]!.toolResults[0]).toMatchObject({ status: 'success', value: 'b: Handoff from a:\nq' });
  });
});
