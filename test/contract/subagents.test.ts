import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { asTool, defineAgent, defineTool, Instrumentation, INTERJECTION_PREFIX, OperationRecorder } from 'ghostlight';
import type { Agent, GhostlightEvent, Run, ToolCallResult } from 'ghostlight';
import { codeMode } from 'ghostlight/code-mode';
import { subagents, SUBAGENT_TOOL_NAMES } from 'ghostlight/subagents';
import type { SubagentDeclaration } from 'ghostlight/subagents';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';
import type { ScriptedTurn } from '../support/scripted-model';

type Value = Record<string, any>;

/** A researcher whose answer names what it was asked; `delayMs` makes each turn take a while. */
function researcher(options: { delayMs?: number; name?: string; tools?: Parameters<typeof defineAgent>[0]['tools'] } = {}) {
  const model = respondingModel((call) => ({ text: `Findings on: ${lastUserText(call)}`, ...(options.delayMs ? { delayMs: options.delayMs } : {}) }));
  return { model, agent: defineAgent({ name: options.name ?? 'researcher', model, tools: options.tools }) };
}

const spawn = (task_name: string, task: string, mode: 'sync' | 'async' = 'sync', kind = 'researcher') => ({
  name: 'spawn_subagent',
  input: { kind, task_name, task, mode },
});

/** Every tool result of a run, in order. */
const results = (run: Run): ToolCallResult[] => run.steps.flatMap((step) => step.toolResults);
const values = (run: Run): Value[] => results(run).map((result) => result.value as Value);
const subagentEvents = (run: Run) => run.events.filter((event): event is Extract<GhostlightEvent, { type: 'subagent' }> => event.type === 'subagent');

/** A model turn: a bare tool call becomes a turn that makes it. */
type Step = ScriptedTurn | { name: string; input: unknown };
const asTurn = (step: Step): ScriptedTurn => ('name' in step ? { toolCalls: [step] } : step);

function lead(turns: Step[], declarations: SubagentDeclaration[], options: Parameters<typeof subagents>[1] = {}) {
  const model = scriptedModel(turns.map(asTurn));
  return { model, agent: defineAgent({ name: 'lead', model, capabilities: [subagents(declarations, options)] }) };
}

describe('subagents: tools and declarations (SPEC A14)', () => {
  it('offers the five tools with the exact names and schemas', async () => {
    const { agent: child } = researcher();
    const { model, agent } = lead([{ text: 'ok' }], [{ kind: 'researcher', agent: child, description: 'Researches one question' }, { agent: researcher({ name: 'critic' }).agent, description: 'Reviews' }]);
    await agent.ask('hi');
    const tools = model.calls[0]!.tools!.map((tool) => tool as { name: string; inputSchema: Value });
    expect(tools.map((tool) => tool.name)).toEqual([...SUBAGENT_TOOL_NAMES]);
    const [spawnTool, send, interject, wait, list] = tools.map((tool) => tool.inputSchema);
    expect(spawnTool).toMatchObject({
      type: 'object',
      required: ['kind', 'task_name', 'task', 'mode'],
      additionalProperties: false,
      properties: { kind: { type: 'string', enum: ['researcher', 'critic'] }, task_name: { type: 'string', pattern: '^[a-z0-9_]+$', maxLength: 40 }, task: { type: 'string' }, mode: { enum: ['sync', 'async'] } },
    });
    expect(spawnTool!.properties.kind.description).toContain('- researcher: Researches one question');
    expect(send).toMatchObject({ required: ['subagent_id', 'message', 'mode'], additionalProperties: false });
    expect(interject).toMatchObject({ required: ['subagent_id', 'message'], additionalProperties: false });
    expect(wait).toMatchObject({ properties: { subagent_ids: { type: 'array', items: { type: 'string' } } }, additionalProperties: false });
    expect(wait!.required ?? []).toEqual([]);
    expect(list).toMatchObject({ properties: { kind: { enum: ['researcher', 'critic'] }, limit: { type: 'integer', minimum: 1, maximum: 100 }, cursor: { type: 'string' } } });
  });

  it('refuses bad declarations before any run', () => {
    const { agent: child } = researcher();
    expect(() => subagents([{ agent: child, description: 'a' }, { agent: child, description: 'b' }])).toThrow('Duplicate subagent kind: researcher');
    expect(() => subagents([{ agent: {} as Agent, description: 'x' }])).toThrow('subagent declarations');
    expect(() => subagents([{ agent: child, description: '' }])).toThrow('needs a description');
    expect(() => subagents([], { waitTimeoutMs: 0 })).toThrow('waitTimeoutMs must be a positive finite number');
    expect(() => subagents([], { waitTimeoutMs: Infinity })).toThrow('waitTimeoutMs must be a positive finite number');
    expect(() => subagents([], { maxConcurrent: 0 })).toThrow('maxConcurrent must be an integer of at least 1');
    expect(() => subagents([{ agent: child, description: 'x', tools: 'search' as never }])).toThrow('Delegated tools must be a list of tools');
  });

  it('adds the kinds a resolver gives for the run; declared kinds win', async () => {
    const declared = researcher();
    const resolved = researcher({ name: 'other' });
    const { model, agent } = lead([spawn('q', 'What is new?'), { text: 'done' }], [{ agent: declared.agent, description: 'Declared' }], {
      resolve: (binding) => [
        { kind: 'researcher', agent: resolved.agent, description: 'Resolved, loses' },
        { kind: `for_${String(binding.run.invocation.context.team)}`, agent: resolved.agent, description: 'Resolved' },
      ],
    });
    const run = await agent.ask('Go', { context: { team: 'red' } });
    expect((model.calls[0]!.tools![0] as { inputSchema: Value }).inputSchema.properties.kind.enum).toEqual(['researcher', 'for_red']);
    expect(values(run)[0]).toMatchObject({ status: 'finished', response: 'Findings on: What is new?' });
    expect(declared.model.calls).toHaveLength(1);
    expect(resolved.model.calls).toHaveLength(0);
    const bad = defineAgent({ name: 'lead', model: scriptedModel([]), capabilities: [subagents(() => [{ nope: true } as never])] });
    await expect(bad.ask('x')).rejects.toThrow('A subagent resolver must give subagent declarations');
  });

  it('runs a child with only its own tools, the parent identity and context, and its own overrides', async () => {
    const seen: unknown[] = [];
    const own = defineTool({ name: 'own_lookup', description: 'Look up.', input: v.strictObject({}), execute: (_input, binding) => (seen.push(binding.run.invocation), 'found') });
    const parentOnly = defineTool({ name: 'parent_only', description: 'Parent tool.', input: v.strictObject({}), execute: () => 'no' });
    const childModel = scriptedModel([{ toolCalls: [{ name: 'own_lookup', input: {} }] }, { text: 'child answer' }]);
    const child = defineAgent({ name: 'researcher', model: scriptedModel([]), tools: [parentOnly] });
    const model = scriptedModel([asTurn(spawn('look', 'Find it')), { text: 'done' }]);
    const parent = defineAgent({ name: 'lead', model, tools: [parentOnly], capabilities: [subagents([{ agent: child, description: 'x', model: childModel, tools: [own] }])] });
    const run = await parent.ask('Go', { actorId: 'ada', context: { accountId: 'acct-1' } });
    expect(values(run)[0]).toMatchObject({ status: 'finished', subagent_id: '/root/look', kind: 'researcher', turn: 1, response: 'child answer' });
    expect(childModel.calls[0]!.tools!.map((tool) => (tool as { name: string }).name)).toEqual(['own_lookup']);
    expect(seen[0]).toMatchObject({ actorId: 'ada', context: { accountId: 'acct-1' } });
  });
});

describe('subagents: spawning, waiting, paths and limits', () => {
  it('runs async children concurrently and waits for both', async () => {
    const child = researcher({ delayMs: 30 });
    const { agent } = lead(
      [{ toolCalls: [spawn('prices', 'Prices in 2024', 'async'), spawn('rivals', 'Who competes', 'async')] }, { toolCalls: [{ name: 'wait_for_subagents', input: {} }] }, { text: 'Both done.' }],
      [{ agent: child.agent, description: 'Researches' }],
    );
    const run = await agent.ask('Research');
    const [first, second, waited] = values(run);
    expect(first).toMatchObject({ status: 'working', subagent: { subagent_id: '/root/prices', status: 'queued', current_turn: null, queued_turns: 1 } });
    expect(second).toMatchObject({ status: 'working', subagent: { subagent_id: '/root/rivals' } });
    expect(waited!.status).toBe('finished');
    expect(waited!.subagents.map((item: Value) => [item.subagent_id, item.status, item.response, item.response_turn])).toEqual([
      ['/root/prices', 'idle', 'Findings on: Prices in 2024', 1],
      ['/root/rivals', 'idle', 'Findings on: Who competes', 1],
    ]);
    const lifecycle = subagentEvents(run).filter((event) => event.event === 'turn_started' || event.event === 'turn_finished').map((event) => event.event);
    expect(lifecycle).toEqual(['turn_started', 'turn_started', 'turn_finished', 'turn_finished']);
  });

  it('answers still_working when work outlasts the wait, keeps it running, and labels previous_response', async () => {
    const gates: Array<() => void> = [];
    const model = respondingModel(async (call) => {
      const text = lastUserText(call);
      if (text.startsWith('slow')) await new Promise<void>((resolve) => gates.push(resolve));
      return { text: `Answer to ${text}` };
    });
    const child = defineAgent({ name: 'researcher', model });
    let waits = 0;
    const parentModel = respondingModel((_call, index): ScriptedTurn => {
      const script: ScriptedTurn[] = [
        spawn('topic', 'quick question') as never,
        { toolCalls: [{ name: 'send_message_to_subagent', input: { subagent_id: '/root/topic', message: 'slow follow-up', mode: 'async' } }] },
        { toolCalls: [{ name: 'wait_for_subagents', input: { subagent_ids: ['/root/topic'] } }] },
        { toolCalls: [{ name: 'wait_for_subagents', input: {} }] },
        { text: 'done' },
      ];
      const turn = script[index]!;
      if ('name' in turn) return { toolCalls: [turn as never] };
      if (turn.toolCalls?.[0]?.name === 'wait_for_subagents' && ++waits === 2) gates.forEach((open) => open());
      return turn;
    });
    const agent = defineAgent({ name: 'lead', model: parentModel, detectToolLoops: true, capabilities: [subagents([{ agent: child, description: 'x' }], { waitTimeoutMs: 40 })] });
    const run = await agent.ask('Go');
    const [, queued, stillWorking, finished] = values(run);
    expect(queued).toMatchObject({ status: 'working', subagent: { status: 'queued', queued_turns: 1 } });
    expect(stillWorking!.status).toBe('still_working');
    expect(stillWorking!.subagents[0]).toMatchObject({ status: 'running', current_turn: 2, previous_response: 'Answer to quick question', previous_response_turn: 1 });
    expect(stillWorking!.subagents[0]).not.toHaveProperty('response');
    expect(stillWorking!.subagents[0].progress.sequence).toBeGreaterThan(0);
    expect(finished).toMatchObject({ status: 'finished', subagents: [{ status: 'idle', response: 'Answer to slow follow-up', response_turn: 2 }] });
    expect(results(run)[2]!.status).toBe('success');
  });

  it('treats a still_working wait as progress, not a tool loop', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const child = defineAgent({ name: 'researcher', model: respondingModel(async () => (await gate, { text: 'late' })) });
    const waits = Array.from({ length: 6 }, () => ({ toolCalls: [{ name: 'wait_for_subagents', input: {} }] }));
    const script: Step[] = [spawn('slow', 'x', 'async'), ...waits, { toolCalls: [{ name: 'wait_for_subagents', input: {} }] }, { text: 'done' }];
    const model = respondingModel((_call, index) => {
      if (index === 7) open();
      return asTurn(script[index]!);
    });
    const agent = defineAgent({ name: 'lead', model, detectToolLoops: true, capabilities: [subagents([{ agent: child, description: 'x' }], { waitTimeoutMs: 10 })] });
    const run = await agent.ask('Go');
    expect(run.outcome).toBe('completed');
    expect(values(run).slice(1, 7).every((value) => value.status === 'still_working')).toBe(true);
    expect(results(run).every((result) => !result.content.startsWith('Repeated tool call'))).toBe(true);
  });

  it('rejects a bad task_name and a duplicate sibling name', async () => {
    const { agent } = lead([{ toolCalls: [spawn('Bad-Name', 'x'), spawn('root', 'x')] }, { toolCalls: [spawn('same', 'one')] }, { toolCalls: [spawn('same', 'two')] }, { text: 'done' }], [
      { agent: researcher().agent, description: 'x' },
    ]);
    const run = await agent.ask('Go');
    const [bad, reserved, first, duplicate] = results(run);
    expect(bad).toMatchObject({ status: 'error' });
    expect(bad!.content).toContain('task_name');
    expect(reserved).toMatchObject({ status: 'error', content: 'task_name must use lowercase letters, digits, and underscores' });
    expect(first!.value).toMatchObject({ status: 'finished' });
    expect(duplicate).toMatchObject({ status: 'error', content: 'Agent path "/root/same" already exists; choose a different task_name.' });
  });

  it('yields capacity_reached for the 21st identity, and for the turn and queue limits', async () => {
    const spawns = Array.from({ length: 21 }, (_, index) => spawn(`task_${index}`, `q${index}`, 'async'));
    const { agent } = lead([{ toolCalls: spawns }, { text: 'done' }], [{ agent: researcher().agent, description: 'x' }]);
    const run = await agent.ask('Go');
    expect(values(run).filter((value) => value.status === 'working')).toHaveLength(20);
    expect(values(run).at(-1)).toEqual({ status: 'capacity_reached', limit: 20, message: 'This run has reached its subagent identity limit.' });

    const limited = lead([{ toolCalls: [spawn('a', 'one', 'async'), spawn('b', 'two', 'async')] }, { text: 'done' }], [{ agent: researcher().agent, description: 'x' }], { maxTurns: 1 });
    expect(values(await limited.agent.ask('Go'))[1]).toEqual({ status: 'capacity_reached', limit: 1, message: 'This run has reached its subagent turn limit.' });

    const follow = (message: string) => ({ name: 'send_message_to_subagent', input: { subagent_id: '/root/a', message, mode: 'async' } });
    const queued = lead([{ toolCalls: [spawn('a', 'one', 'async'), follow('two'), follow('three')] }, { text: 'done' }], [{ agent: researcher({ delayMs: 20 }).agent, description: 'x' }], { maxQueuedTurns: 1 });
    const queueRun = await queued.agent.ask('Go');
    expect(values(queueRun)[2]).toMatchObject({ status: 'capacity_reached', limit: 1, message: 'Subagent "/root/a" has reached its queued turn limit.', subagent: { subagent_id: '/root/a' } });
  });

  it('answers invalid_request for an oversized message and truncates an oversized response', async () => {
    const long = defineAgent({ name: 'researcher', model: respondingModel(() => ({ text: 'x'.repeat(50) })) });
    const { agent } = lead([{ toolCalls: [spawn('big', 'y'.repeat(11))] }, { toolCalls: [spawn('ok', 'short')] }, { text: 'done' }], [{ agent: long, description: 'x' }], { maxMessageChars: 10, maxResponseChars: 20 });
    const run = await agent.ask('Go');
    expect(values(run)[0]).toEqual({ status: 'invalid_request', message: 'Subagent messages cannot exceed 10 characters.' });
    expect(values(run)[1]).toMatchObject({ status: 'finished', response: 'x'.repeat(20), response_truncated: true });
  });

  it('processes follow-ups FIFO after the current turn, on the same conversation', async () => {
    const child = researcher({ delayMs: 10 });
    const follow = (message: string) => ({ name: 'send_message_to_subagent', input: { subagent_id: '/root/notes', message, mode: 'async' } });
    const { agent } = lead(
      [{ toolCalls: [spawn('notes', 'first', 'async'), follow('second'), follow('third')] }, { toolCalls: [{ name: 'wait_for_subagents', input: {} }] }, { text: 'done' }],
      [{ agent: child.agent, description: 'x' }],
    );
    const run = await agent.ask('Go');
    expect(child.model.calls.map(lastUserText)).toEqual(['first', 'second', 'third']);
    expect(child.model.calls[2]!.prompt.filter((message) => message.role === 'user')).toHaveLength(3);
    expect(values(run)[3]).toMatchObject({ status: 'finished', subagents: [{ latest_turn: 3, response: 'Findings on: third' }] });
    expect(subagentEvents(run).filter((event) => event.event === 'message_queued').map((event) => event.turn)).toEqual([2, 3]);
  });

  it('returns the structured value of a structured child', async () => {
    const triage = defineAgent({
      name: 'triage',
      model: scriptedModel([{ toolCalls: [{ name: 'triage_result', input: { category: 'billing' } }] }]),
      modelCapabilities: { nativeStructuredOutput: false, tools: true, toolChoice: true },
      result: { schema: v.strictObject({ category: v.string() }), name: 'triage_result', strategy: 'tool' },
    });
    const { agent } = lead([spawn('sort', 'Classify', 'sync', 'triage'), { text: 'done' }], [{ agent: triage, description: 'Triage' }]);
    expect(values(await agent.ask('Go'))[0]).toMatchObject({ status: 'finished', response: { category: 'billing' } });
  });

  it('keeps a failed identity failed: its follow-ups must go to a new spawn', async () => {
    const failing = defineAgent({ name: 'researcher', model: respondingModel(() => ({ error: new Error('provider exploded') })), settings: { maxRetries: 0 } });
    const { agent } = lead(
      [spawn('doomed', 'x'), { toolCalls: [{ name: 'send_message_to_subagent', input: { subagent_id: '/root/doomed', message: 'again', mode: 'sync' } }] }, { text: 'done' }],
      [{ agent: failing, description: 'x' }],
    );
    const run = await agent.ask('Go');
    expect(values(run)[0]).toEqual({ status: 'failed', subagent_id: '/root/doomed', kind: 'researcher', turn: 1, error: 'Subagent turn failed.' });
    expect(results(run)[1]).toMatchObject({ status: 'error', content: 'Subagent "/root/doomed" is failed; spawn a new identity.' });
    expect(JSON.stringify(run.events)).not.toContain('provider exploded');
    expect(subagentEvents(run).find((event) => event.event === 'turn_failed')).toMatchObject({ errorType: 'ProviderError', status: 'failed' });
  });

  it('pages with the cursor it returned', async () => {
    let cursor = '';
    const model = respondingModel((call, index) => {
      const last = call.prompt.at(-1);
      if (last?.role === 'tool') {
        const part = last.content[0] as { output: { value: string } };
        const value = JSON.parse(part.output.value) as Value;
        if (value.next_cursor) cursor = value.next_cursor;
      }
      const script = [spawn('alpha', 'a'), spawn('beta', 'b'), spawn('gamma', 'c'), { name: 'list_subagents', input: { limit: 2 } }];
      if (index < script.length) return asTurn(script[index]!);
      if (index === 4) return { toolCalls: [{ name: 'list_subagents', input: { limit: 2, cursor } }] };
      if (index === 5) return { toolCalls: [{ name: 'list_subagents', input: { cursor: 'not a cursor' } }] };
      return { text: 'done' };
    });
    const agent = defineAgent({ name: 'lead', model, capabilities: [subagents([{ agent: researcher().agent, description: 'x' }])] });
    const run = await agent.ask('Go');
    const [firstPage, secondPage] = values(run).slice(3);
    expect(firstPage!.subagents.map((item: Value) => item.subagent_id)).toEqual(['/root/gamma', '/root/beta']);
    expect(secondPage!.subagents.map((item: Value) => item.subagent_id)).toEqual(['/root/alpha']);
    expect(secondPage).not.toHaveProperty('next_cursor');
    expect(results(run)[5]).toMatchObject({ status: 'error', content: 'Invalid subagent list cursor' });
  });
});

describe('subagents: interjection, cancellation and close', () => {
  it('interjects a running child at its next model boundary and returns that response', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let searching!: () => void;
    const started = new Promise<void>((resolve) => (searching = resolve));
    const slow = defineTool({ name: 'slow_search', description: 'Searches slowly.', input: v.strictObject({}), execute: async () => (searching(), await gate, 'results') });
    const childModel = scriptedModel([{ toolCalls: [{ name: 'slow_search', input: {} }] }, { text: 'Halfway: found two sources.', toolCalls: [{ name: 'slow_search', input: {} }] }, { text: 'Final findings.' }]);
    const child = defineAgent({ name: 'researcher', model: childModel, tools: [slow] });
    const parentModel = respondingModel(async (_call, index) => {
      if (index === 1) {
        await started;
        setTimeout(open, 20);
      }
      const script: ScriptedTurn[] = [
        { toolCalls: [spawn('deep', 'Dig deep', 'async')] },
        { toolCalls: [{ name: 'interject_subagent', input: { subagent_id: '/root/deep', message: 'How far along are you?' } }] },
        { toolCalls: [{ name: 'wait_for_subagents', input: {} }] },
        { text: 'done' },
      ];
      return script[index]!;
    });
    const agent = defineAgent({ name: 'lead', model: parentModel, capabilities: [subagents([{ agent: child, description: 'x' }])] });
    const run = await agent.ask('Go');
    const interjected = values(run)[1]!;
    expect(interjected).toMatchObject({ status: 'interjection_delivered', subagent_id: '/root/deep', turn: 1, response: 'Halfway: found two sources.', response_disposition: 'text_with_tool_calls' });
    const userTexts = childModel.calls[1]!.prompt.filter((message) => message.role === 'user').map((message) => JSON.stringify(message.content));
    expect(userTexts.at(-1)).toContain('Agent interjection:');
    expect(userTexts.at(-1)).toContain('How far along are you?');
    expect(values(run)[2]).toMatchObject({ status: 'finished', subagents: [{ response: 'Final findings.' }] });
    const notRunning = lead([spawn('done_already', 'x'), { toolCalls: [{ name: 'interject_subagent', input: { subagent_id: '/root/done_already', message: 'hi' } }] }, { text: 'ok' }], [{ agent: researcher().agent, description: 'x' }]);
    expect(results(await notRunning.agent.ask('Go'))[1]).toMatchObject({ status: 'error', content: 'Subagent "/root/done_already" is not currently running.' });
    expect(INTERJECTION_PREFIX.startsWith('Agent interjection:')).toBe(true);
  });

  it('cancels every child when the parent run is cancelled', async () => {
    const childSignals: AbortSignal[] = [];
    const hang = defineTool({
      name: 'hang',
      description: 'Waits for the signal.',
      input: v.strictObject({}),
      execute: (_input, binding) => new Promise((_, reject) => {
        childSignals.push(binding.signal);
        binding.signal.addEventListener('abort', () => reject(binding.signal.reason), { once: true });
      }),
    });
    const child = defineAgent({ name: 'researcher', model: respondingModel(() => ({ toolCalls: [{ name: 'hang', input: {} }] })), tools: [hang] });
    const controller = new AbortController();
    const { agent } = lead([{ toolCalls: [spawn('one', 'x'), spawn('two', 'y')] }], [{ agent: child, description: 'x' }]);
    const stream = agent.stream('Go', { signal: controller.signal });
    for await (const event of stream) {
      if (childSignals.length === 2) break;
      void event;
    }
    while (childSignals.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const run = await stream.run;
    expect(run.outcome).toBe('cancelled');
    expect(childSignals.every((signal) => signal.aborted)).toBe(true);
    expect(subagentEvents(run).filter((event) => event.event === 'cancelled').map((event) => event.subagentId).sort()).toEqual(['/root/one', '/root/two']);
  });

  it('cancels async children still running when the parent finishes, before the terminal event', async () => {
    const child = researcher({ delayMs: 5_000 });
    const { agent } = lead([{ toolCalls: [spawn('late', 'x', 'async')] }, { text: 'I did not wait.' }], [{ agent: child.agent, description: 'x' }]);
    const run = await agent.ask('Go');
    expect(run.outcome).toBe('completed');
    const cancelled = subagentEvents(run).find((event) => event.event === 'cancelled');
    expect(cancelled).toMatchObject({ subagentId: '/root/late', status: 'cancelled', turn: 1 });
    expect(run.events.at(-1)!.type).toBe('run-stop');
    expect(child.model.calls[0]!.abortSignal!.aborted).toBe(true);
  });

  it('bounds close by closeTimeoutMs and reports a child that would not stop', async () => {
    const stubborn = defineTool({ name: 'stubborn', description: 'Ignores cancellation.', input: v.strictObject({}), execute: () => new Promise((resolve) => setTimeout(() => resolve('late'), 400)) });
    const child = defineAgent({ name: 'researcher', model: respondingModel(() => ({ toolCalls: [{ name: 'stubborn', input: {} }] })), tools: [stubborn] });
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    const model = respondingModel(async (_call, index) => {
      if (index === 1) await started;
      return index === 0 ? { toolCalls: [spawn('stuck', 'x', 'async')] } : { text: 'done' };
    });
    const agent = defineAgent({ name: 'lead', model, capabilities: [subagents([{ agent: child, description: 'x' }], { closeTimeoutMs: 30 })] });
    const stream = agent.stream('Go');
    void (async () => {
      for await (const event of stream) if (event.type === 'subagent' && event.event === 'tool_started') toolStarted();
    })();
    const run = await stream.run;
    expect(run.outcome).toBe('failed');
    expect(run.cleanupFailed).toBe(true);
    expect(String((run.error as { errors?: unknown[] }).errors?.map(String))).toContain('1 subagent worker(s) did not stop within 0.03 seconds');
  });

  it('keeps the subagent tools model-facing under code mode', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const lookup = defineTool({ name: 'lookup', description: 'Look up.', input: v.strictObject({}), execute: () => 'x' });
    const agent = defineAgent({ name: 'lead', model, tools: [lookup], capabilities: [codeMode(), subagents([{ agent: researcher().agent, description: 'x' }])] });
    await agent.ask('Go');
    const names = model.calls[0]!.tools!.map((tool) => (tool as { name: string }).name);
    expect(names).toEqual(['exec', 'wait', 'stop', ...SUBAGENT_TOOL_NAMES]);
  });

  it('gives nested subagents paths beneath their parent', async () => {
    const grandchild = researcher({ name: 'fact_checker' });
    const middleModel = scriptedModel([{ toolCalls: [{ name: 'spawn_subagent', input: { kind: 'fact_checker', task_name: 'check', task: 'Check it', mode: 'sync' } }] }, { text: 'checked' }]);
    const middle = defineAgent({ name: 'researcher', model: middleModel, capabilities: [subagents([{ agent: grandchild.agent, description: 'Checks facts' }])] });
    const { agent } = lead([spawn('study', 'Study it'), { text: 'done' }], [{ agent: middle, description: 'x' }]);
    const run = await agent.ask('Go');
    expect(values(run)[0]).toMatchObject({ status: 'finished', response: 'checked' });
    const nested = JSON.parse((middleModel.calls[1]!.prompt.at(-1)!.content[0] as { output: { value: string } }).output.value) as Value;
    expect(nested).toMatchObject({ subagent_id: '/root/study/check', response: 'Findings on: Check it' });
    expect(subagentEvents(run).some((event) => event.event === 'activity')).toBe(true);
  });

  it('writes lifecycle events without message content', async () => {
    const { agent } = lead([spawn('secretive', 'The password is swordfish'), { text: 'done' }], [{ agent: researcher().agent, description: 'x' }]);
    const run = await agent.ask('Go');
    const events = subagentEvents(run);
    expect(events.map((event) => event.event)).toEqual(['spawned', 'turn_started', 'activity', 'activity', 'turn_finished']);
    expect(events[0]).toMatchObject({ subagentId: '/root/secretive', kind: 'researcher', status: 'queued', turn: 1, parentToolCallId: results(run)[0]!.toolCallId });
    expect(events[1]!.subagentRunId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(events)).not.toContain('swordfish');
  });

  it('reports each child turn as a subagent operation of the parent agent, with the child run inside it', async () => {
    const recorder = new OperationRecorder();
    const classify = asTool(researcher({ name: 'classify' }).agent);
    const model = scriptedModel([{ toolCalls: [spawn('one', 'x', 'async'), spawn('two', 'y', 'async')] }, { toolCalls: [{ name: 'wait_for_subagents', input: {} }] }, { toolCalls: [{ name: 'classify', input: { input: 'z' } }] }, { text: 'done' }]);
    const agent = defineAgent({ name: 'lead', model, tools: [classify], capabilities: [subagents([{ agent: researcher().agent, description: 'x' }])] });
    await agent.ask('Go', { instrumentation: new Instrumentation({ subscribers: [recorder] }) });
    const operations = recorder.operations();
    const byId = new Map(operations.map((operation) => [operation.id, operation]));
    const parentAgent = operations.find((operation) => operation.name === 'agent' && operation.attributes.agent === 'lead')!;
    const turns = operations.filter((operation) => operation.name === 'subagent');
    expect(turns.map((operation) => [operation.attributes.subagentId, operation.attributes.kind, operation.attributes.turn, operation.attributes.status, operation.parentId])).toEqual([
      ['/root/one', 'researcher', 1, 'idle', parentAgent.id],
      ['/root/two', 'researcher', 1, 'idle', parentAgent.id],
    ]);
    const childRuns = operations.filter((operation) => operation.name === 'run' && operation.attributes.agent === 'researcher');
    expect(childRuns.map((operation) => byId.get(operation.parentId!)!.name)).toEqual(['subagent', 'subagent']);
    const delegated = operations.find((operation) => operation.name === 'run' && operation.attributes.agent === 'classify')!;
    expect(byId.get(delegated.parentId!)).toMatchObject({ name: 'tool', attributes: { toolName: 'classify' } });
  });
});
