import { describe, expect, it } from 'vitest';
import { asTool, ConfigurationError, defineAgent, InvocationError, ProtocolError, ProviderError } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AssemblyLimitError, AssemblyStepTimeoutError, defineWorkflow, isAssemblyRun, MAX_STEP_OUTPUT_BYTES, Workflow } from 'ghostlight/assemblies';
import type { AssemblyRun } from 'ghostlight/assemblies';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

/** An agent that answers `<name>: <its input>` (every call). */
function echo(name: string, options: { delayMs?: number } = {}) {
  const model = respondingModel((call) => ({ text: `${name}: ${lastUserText(call)}`, ...(options.delayMs ? { delayMs: options.delayMs } : {}) }));
  return Object.assign(defineAgent({ name, model }), { model });
}

async function collect(stream: AsyncIterable<GhostlightEvent>): Promise<GhostlightEvent[]> {
  const events: GhostlightEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('Workflow (SPEC A15)', () => {
  it('composes agents: an intermediate output feeds the final invoke, whose answer is the run', async () => {
    const research = echo('research');
    const writer = echo('writer');
    const respond = defineWorkflow({
      name: 'respond',
      perform: async (workflow) => {
        const found = await workflow.invoke(research).output;
        return workflow.invoke(writer, { input: `${workflow.text}\n\nVerified research:\n${found}` });
      },
    });
    expect(respond).toBeInstanceOf(Workflow);
    expect(respond.kind).toBe('workflow');
    const run = await respond.ask('Why is transfer 481 pending?');
    expect(run.outcome).toBe('completed');
    expect(run.response).toBe('writer: Why is transfer 481 pending?\n\nVerified research:\nresearch: Why is transfer 481 pending?');
    expect(run.agent).toBe('respond');
    expect(isAssemblyRun(run)).toBe(true);
    expect(run.trajectory.steps.map((step) => [step.participant, step.kind, step.status])).toEqual([
      ['research', 'agent', 'completed'],
      ['writer', 'agent', 'completed'],
    ]);
    expect(run.usage.totalTokens).toBe(30);
  });

  it('streams only the final invoke, between its step events, with one terminal event', async () => {
    const research = echo('research');
    const writer = echo('writer');
    const respond = defineWorkflow({
      name: 'respond',
      perform: async (workflow) => {
        await workflow.invoke(research, { as: 'researcher' }).output;
        return workflow.invoke(writer);
      },
    });
    const stream = respond.stream('hello');
    const events = await collect(stream);
    const deltas = events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('');
    expect(deltas).toBe('writer: hello');
    expect(events.map((event) => event.type).filter((type) => type.startsWith('assembly-') || type.startsWith('run-'))).toEqual([
      'run-start',
      'assembly-step-start',
      'assembly-step-stop',
      'assembly-step-start',
      'assembly-step-stop',
      'run-stop',
    ]);
    expect(events.find((event) => event.type === 'assembly-step-start')).toMatchObject({ assembly: 'respond', assemblyKind: 'workflow', participant: 'researcher', step: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'run-stop', response: 'writer: hello' });
    expect((await stream.run).response).toBe('writer: hello');
  });

  it('fails with ProtocolError when perform returns a consumed output instead of its final invoke', async () => {
    const writer = echo('writer');
    const wrong = defineWorkflow({ name: 'wrong', perform: async (workflow) => (await workflow.invoke(writer).output) as never });
    const run = await wrong.ask('x');
    expect(run.outcome).toBe('failed');
    expect(ProtocolError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).message).toBe('wrong must return its final invoke from perform');
    expect(run.errorInfo).toEqual({ name: 'ProtocolError', message: 'wrong must return its final invoke from perform' });
    const consumed = defineWorkflow({
      name: 'consumed',
      perform: async (workflow) => {
        const step = workflow.invoke(writer);
        await step.output;
        return step;
      },
    });
    expect((await consumed.ask('x')).errorInfo?.message).toBe('consumed must return its final invoke from perform');
  });

  it('gives children the caller history and context by default, and what invoke says otherwise', async () => {
    const seen: unknown[] = [];
    const probe = (name: string) =>
      defineAgent({
        name,
        model: respondingModel((call) => {
          seen.push({ name, users: call.prompt.filter((message) => message.role === 'user').length });
          return { text: name };
        }),
        tools: [],
        runtimeHooks: [{ prepareRun: ({ run }) => void seen.push({ name, context: run.invocation.context }) }],
      });
    const workflow = defineWorkflow({
      name: 'scoped',
      perform: async (flow) => {
        await flow.invoke(probe('inherits')).output;
        return flow.invoke(probe('redacted'), { history: [], context: {} });
      },
    });
    const run = await workflow.ask('now', { history: [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'ok' }], context: { accountId: 'a1' } });
    expect(run.error).toBeUndefined();
    expect(seen).toEqual([
      { name: 'inherits', context: { accountId: 'a1' } },
      { name: 'inherits', users: 2 },
      { name: 'redacted', context: {} },
      { name: 'redacted', users: 1 },
    ]);
  });

  it('rejects a context that is not JSON-like', () => {
    const writer = echo('writer');
    const workflow = defineWorkflow({ name: 'flow', perform: (flow) => flow.invoke(writer) });
    expect(() => workflow.stream('x', { context: { when: new Date() } })).toThrow(InvocationError);
    expect(() => workflow.stream('x', { context: { when: new Date() } })).toThrow('workflow context must contain only JSON-like state');
  });

  it('runs parallel invokes concurrently, bounded by maxConcurrency, and keeps their order', async () => {
    let active = 0;
    let peak = 0;
    const slow = (name: string, ms: number) =>
      defineAgent({
        name,
        model: respondingModel(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, ms));
          active--;
          return { text: name };
        }),
      });
    const writer = echo('writer');
    const workflow = defineWorkflow({
      name: 'investigate',
      perform: async (flow) => {
        const findings = await flow.parallel(flow.invoke(slow('ledger', 30)), flow.invoke(slow('policy', 1)), flow.invoke(slow('history', 10)), { maxConcurrency: 2 });
        return flow.invoke(writer, { input: findings.join(',') });
      },
    });
    const run = await workflow.ask('x');
    expect(run.response).toBe('writer: ledger,policy,history');
    expect(peak).toBe(2);
    const step = (name: string) => run.trajectory.find((candidate) => candidate.participant === name)!.id;
    expect(run.trajectory.concurrent(step('ledger'), step('policy'))).toBe(true);
    expect(run.trajectory.concurrent(step('ledger'), step('history'))).toBe(true);
    expect(run.trajectory.concurrent(step('policy'), step('history'))).toBe(false);
    expect(run.trajectory.concurrent(step('ledger'), step('writer'))).toBe(false);
  });

  it('retries only the declared errors, repeating the whole child step', async () => {
    let calls = 0;
    const flaky = defineAgent({
      name: 'flaky',
      model: respondingModel(() => (++calls === 1 ? { error: new Error('upstream 500') } : { text: 'fine' })),
      settings: { maxRetries: 0 },
    });
    const workflow = defineWorkflow({ name: 'retrying', perform: (flow) => flow.invoke(flaky, { retries: 1, retryOn: ['ProviderError'] }) });
    const stream = workflow.stream('x');
    const events = await collect(stream);
    const run = (await stream.run) as AssemblyRun;
    expect(run.response).toBe('fine');
    expect(run.trajectory.attemptsFor(run.trajectory.steps[0]!.id).map((attempt) => [attempt.number, attempt.status, attempt.error])).toEqual([
      [1, 'failed', 'ProviderError'],
      [2, 'completed', undefined],
    ]);
    expect(events.filter((event) => event.type === 'assembly-step-error' || event.type === 'assembly-step-retry')).toMatchObject([
      { type: 'assembly-step-error', attempt: 1, errorType: 'ProviderError', terminal: false },
      { type: 'assembly-step-retry', attempt: 1, errorType: 'ProviderError', delay: 0 },
    ]);

    calls = 0;
    const notRetried = await defineWorkflow({ name: 'strict', perform: (flow) => flow.invoke(flaky, { retries: 2, retryOn: ['ToolError'] }) }).ask('x');
    expect(notRetried.outcome).toBe('failed');
    expect(ProviderError.isInstance(notRetried.error)).toBe(true);
    expect(calls).toBe(1);

    calls = 0;
    const byPredicate = await defineWorkflow({ name: 'predicate', perform: (flow) => flow.invoke(flaky, { retries: 1, retryOn: (error) => ProviderError.isInstance(error) }) }).ask('x');
    expect(byPredicate.response).toBe('fine');
  });

  it('refuses retries without retryOn, and bad timeouts or delays (ConfigurationError)', async () => {
    const writer = echo('writer');
    const attempt = async (options: object) => (await defineWorkflow({ name: 'bad', perform: (flow) => flow.invoke(writer, options) }).ask('x')).error;
    const noRetryOn = await attempt({ retries: 2 });
    expect(ConfigurationError.isInstance(noRetryOn)).toBe(true);
    expect((noRetryOn as Error).message).toBe('bad invoke writer: retryOn is required when retries is greater than 0');
    expect((await attempt({ timeout: 0 }) as Error).message).toBe('bad invoke writer: timeout must be positive');
    expect((await attempt({ retryDelay: -1 }) as Error).message).toBe('bad invoke writer: retryDelay must be non-negative');
    expect((await attempt({ retries: -1 }) as Error).message).toBe('bad invoke writer: retries must be at least 0');
  });

  it('ends a step that outlives its timeout with AssemblyStepTimeoutError (cooperative)', async () => {
    const slow = defineAgent({ name: 'slow', model: scriptedModel([{ text: 'late', delayMs: 5_000 }]) });
    const run = await defineWorkflow({ name: 'bounded', perform: (flow) => flow.invoke(slow, { timeout: 20 }) }).ask('x');
    expect(run.outcome).toBe('failed');
    expect(AssemblyStepTimeoutError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo).toEqual({ name: 'AssemblyStepTimeoutError', message: 'assembly step "slow" exceeded its timeout' });
    expect(run.trajectory.steps[0]).toMatchObject({ participant: 'slow', status: 'failed' });
  });

  it('nests: a workflow invoking a workflow records the inner steps as children', async () => {
    const inner = defineWorkflow({ name: 'inner', perform: (flow) => flow.invoke(echo('leaf')) });
    const outer = defineWorkflow({ name: 'outer', perform: (flow) => flow.invoke(inner) });
    const stream = outer.stream('x');
    const events = await collect(stream);
    const run = (await stream.run) as AssemblyRun;
    expect(run.response).toBe('leaf: x');
    const [step, leaf] = run.trajectory.steps;
    expect(step).toMatchObject({ participant: 'inner', kind: 'workflow' });
    expect(run.trajectory.children(step!.id)).toEqual([leaf]);
    expect(leaf).toMatchObject({ participant: 'leaf', assembly: 'inner', parentId: step!.id });
    expect(events.filter((event) => event.type === 'assembly-step-start').map((event) => (event as { assembly: string }).assembly)).toEqual(['outer', 'inner']);
  });

  it('rejects a workflow that runs inside itself', async () => {
    const box: { self?: Workflow } = {};
    const recursive: Workflow = defineWorkflow({ name: 'recursive', perform: (flow) => flow.invoke(box.self!) });
    box.self = recursive;
    const run = await recursive.ask('x');
    expect(ConfigurationError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).message).toBe('Recursive assembly: workflow recursive runs inside itself');
  });

  it('is cancelled with the caller signal and partial at the deadline', async () => {
    const slow = defineAgent({ name: 'slow', model: scriptedModel([{ text: 'late', delayMs: 5_000 }]) });
    const controller = new AbortController();
    const pending = defineWorkflow({ name: 'cancellable', perform: (flow) => flow.invoke(slow) }).ask('x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const cancelled = await pending;
    expect(cancelled.outcome).toBe('cancelled');
    expect(cancelled.response).toBe('');
    const slow2 = defineAgent({ name: 'slow', model: scriptedModel([{ text: 'late', delayMs: 5_000 }]) });
    const partial = await defineWorkflow({ name: 'deadline', perform: (flow) => flow.invoke(slow2) }).ask('x', { deadline: Date.now() + 20 });
    expect(partial.outcome).toBe('partial');
  });

  it('becomes a tool with asTool; composites refuse model and tool overrides', async () => {
    const workflow = defineWorkflow({ name: 'lookup', perform: (flow) => flow.invoke(echo('leaf')) });
    const tool = asTool(workflow);
    expect(tool.name).toBe('lookup');
    expect(tool.description).toBe('Delegate a task to lookup.');
    const lead = defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'lookup', input: { input: 'order 481' } }] }, { text: 'done' }]), tools: [tool] });
    const run = await lead.ask('x');
    expect(run.steps[0]!.toolResults[0]).toMatchObject({ status: 'success', value: 'leaf: order 481' });
    expect(() => asTool(workflow, { model: scriptedModel([]) })).toThrow('Composite assemblies do not accept delegated model or tool overrides');
    expect(() => asTool(workflow, { tools: [] })).toThrow(ConfigurationError);
  });

  it('without perform is a planned workflow (data only)', () => {
    const planned = defineWorkflow({ name: 'review', description: 'Review a candidate.' });
    expect(planned).toEqual({ name: 'review', description: 'Review a candidate.', kind: 'planned-workflow' });
    expect(Object.isFrozen(planned)).toBe(true);
  });

  it('keeps step outputs up to 64 KiB in the trajectory; a larger one is marked truncated', async () => {
    const big = defineAgent({ name: 'big', model: scriptedModel([{ text: 'x'.repeat(MAX_STEP_OUTPUT_BYTES + 1) }]) });
    const small = echo('small');
    const run = await defineWorkflow({
      name: 'outputs',
      perform: async (flow) => {
        await flow.invoke(big).output;
        return flow.invoke(small);
      },
    }).ask('x');
    expect(run.trajectory.steps.map((step) => [step.participant, step.output === undefined ? undefined : String(step.output).length, step.outputTruncated])).toEqual([
      ['big', undefined, true],
      ['small', 'small: x'.length, false],
    ]);
    expect(Object.isFrozen(run.trajectory.steps[0])).toBe(true);
  });

  it('bounds a step to 10 MiB of event data (AssemblyLimitError)', async () => {
    const huge = defineAgent({ name: 'huge', model: scriptedModel([{ text: 'y'.repeat(3 * 1024 * 1024) }]) });
    const run = await defineWorkflow({ name: 'bytes', perform: (flow) => flow.invoke(huge) }).ask('x');
    expect(AssemblyLimitError.isInstance(run.error)).toBe(true);
    expect(run.errorInfo).toEqual({ name: 'AssemblyLimitError', message: 'assembly step emitted too much event data' });
  });

  it('refuses parallel without invokes or with read ones, and counts the usage of failed runs', async () => {
    const writer = echo('writer');
    const empty = await defineWorkflow({ name: 'empty', perform: async (flow) => ((await flow.parallel()) as never) }).ask('x');
    expect((empty.error as Error).message).toBe('parallel requires at least one invocation');
    const read = await defineWorkflow({
      name: 'read',
      perform: async (flow) => {
        const step = flow.invoke(writer);
        await step.output;
        return (await flow.parallel(step)) as never;
      },
    }).ask('x');
    expect((read.error as Error).message).toBe('parallel accepts unconsumed workflow invocations');
    expect(read.outcome).toBe('failed');
    expect(read.usage.totalTokens).toBe(15);
  });
});
