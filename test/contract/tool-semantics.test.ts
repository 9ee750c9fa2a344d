import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CancelledError, CleanupError, ConfigurationError, DeadlineExceededError, ProtocolError, ToolError, defineAgent, defineTool } from 'ghostlight';
import type { AfterToolEvent, Tool, ToolBinding } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

const echo = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    input: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
    execute: (input) => (input as { text?: string }).text ?? name,
    ...extra,
  });

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 10 } },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('tool results (C.1–C.3)', () => {
  it('C.1 returns a ToolError message to the model and continues', async () => {
    const guarded = echo('refund', { execute: () => { throw new ToolError('permission denied'); } });
    const model = scriptedModel([{ toolCalls: [{ name: 'refund', input: {} }] }, { text: 'I cannot refund that.' }]);
    const run = await defineAgent({ name: 'c1', model, tools: [guarded] }).ask('refund me');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ status: 'error', content: 'permission denied' });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.prompt.at(-1)?.content).toEqual([
      expect.objectContaining({ output: { type: 'error-text', value: 'permission denied' } }),
    ]);
  });

  it('C.2 hides unexpected exception messages from the model but keeps them for the application', async () => {
    const leaky = echo('leaky', { execute: () => { throw new Error('secret credentials'); } });
    const seen: AfterToolEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'leaky', input: {} }] }, { text: 'Sorry.' }]);
    const run = await defineAgent({ name: 'c2', model, tools: [leaky], hooks: { afterTool: (event) => void seen.push(event) } }).ask('go');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.content).toBe('Tool failed (Error)');
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('secret credentials');
    expect((seen[0]?.result.error as Error).message).toBe('secret credentials');
    expect((result.error as Error).message).toBe('secret credentials');
    const typeError = echo('typed', { execute: () => { throw new TypeError('x is undefined'); } });
    const second = await defineAgent({ name: 'c2b', model: scriptedModel([{ toolCalls: [{ name: 'typed', input: {} }] }, { text: 'ok' }]), tools: [typeError] }).ask('go');
    expect(second.steps[0]?.toolResults[0]?.content).toBe('Tool failed (TypeError)');
  });

  it('C.3 lets cancellation, deadline and cleanup errors thrown in a tool end the run instead', async () => {
    const cases = [
      { error: new CancelledError(), outcome: 'cancelled' },
      { error: new DeadlineExceededError(), outcome: 'partial' },
      { error: new CleanupError({ errors: [new Error('disk')] }), outcome: 'failed' },
    ] as const;
    for (const { error, outcome } of cases) {
      const model = scriptedModel([{ toolCalls: [{ name: 'control', input: {} }] }, { text: 'never' }]);
      const control = echo('control', { execute: () => { throw error; } });
      const run = await defineAgent({ name: 'c3', model, tools: [control] }).ask('go');
      expect(run.outcome).toBe(outcome);
      expect(run.error).toBe(error);
      expect(model.calls).toHaveLength(1);
      expect(run.steps.flatMap((step) => step.toolResults)).toEqual([]);
    }
  });
});

describe('input validation (C.4–C.5)', () => {
  it('C.4 reports every problem in one error result and does not execute', async () => {
    let executed = false;
    const weather = defineTool({ name: 'weather', description: 'Weather.', input: weatherSchema, execute: () => { executed = true; return 'x'; } });
    const model = scriptedModel([
      { toolCalls: [{ name: 'weather', input: { units: 'kelvin', days: ['tomorrow'], surprise: true } }] },
      { text: 'ok' },
    ]);
    const run = await defineAgent({ name: 'c4', model, tools: [weather] }).ask('weather');
    const content = run.steps[0]!.toolResults[0]!.content;
    expect(executed).toBe(false);
    expect(content.startsWith('Invalid tool input: ')).toBe(true);
    for (const expected of ['$.city is required', '$.units must be one of', '$.days[0] must be integer', '$.surprise is not allowed']) {
      expect(content).toContain(expected);
    }
    expect(run.steps[0]!.toolResults[0]!.status).toBe('error');
  });

  it('C.5 reports a non-object root and numeric bounds', async () => {
    const weather = defineTool({ name: 'weather', description: 'Weather.', input: weatherSchema, execute: () => 'x' });
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'weather', rawInput: '"Paris"', input: null }, { id: 'b', name: 'weather', input: { city: 'Paris', days: [0, 11] } }] },
      { text: 'ok' },
    ]);
    const run = await defineAgent({ name: 'c5', model, tools: [weather] }).ask('weather');
    const [root, bounds] = run.steps[0]!.toolResults;
    expect(root?.content).toContain('$ must be object');
    expect(bounds?.content).toContain('$.days[0] must be at least 1');
    expect(bounds?.content).toContain('$.days[1] must be at most 10');
  });

  it('validates valibot inputs and hands execute the parsed value', async () => {
    const received: unknown[] = [];
    const tool = defineTool({
      name: 'count',
      description: 'Count.',
      input: v.strictObject({ n: v.pipe(v.number(), v.integer(), v.minValue(1)), label: v.optional(v.string(), 'none') }),
      execute: (input) => void received.push(input),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'bad', name: 'count', input: { n: 0 } }, { id: 'ok', name: 'count', input: { n: 2 } }] },
      { text: 'ok' },
    ]);
    const run = await defineAgent({ name: 'valibot', model, tools: [tool] }).ask('count');
    expect(run.steps[0]?.toolResults[0]?.content).toMatch(/^Invalid tool input: \$\.n /);
    expect(received).toEqual([{ n: 2, label: 'none' }]);
    expect(model.calls[0]?.tools?.[0]).toMatchObject({ inputSchema: { type: 'object', required: ['n'], additionalProperties: false } });
  });

  it('returns invalid JSON arguments to the model as an error', async () => {
    const tool = echo('echo');
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', rawInput: '{"text": ', input: null }] }, { text: 'ok' }]);
    const run = await defineAgent({ name: 'json', model, tools: [tool] }).ask('go');
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ status: 'error', content: 'Invalid tool input: $ must be valid JSON' });
  });
});

describe('tool registration (C.6–C.10)', () => {
  it('C.6 hides a tool whose availableIf is false from the model', async () => {
    const seen: ToolBinding[] = [];
    const slack = echo('update_slack_message', { availableIf: (binding) => { seen.push(binding); return binding.run.invocation.context.interface === 'slack'; } });
    const model = scriptedModel([{ text: 'hi' }]);
    await defineAgent({ name: 'c6', model, tools: [slack, echo('always')] }).ask('hi', { context: { interface: 'web' } });
    expect(model.calls[0]?.tools?.map((tool) => (tool as { name: string }).name)).toEqual(['always']);
    expect(seen[0]?.run.invocation.context).toEqual({ interface: 'web' });
  });

  it('C.7 flattens providers and binds their tools to the run', async () => {
    const bindings: string[] = [];
    const provider = (binding: ToolBinding) => {
      bindings.push(binding.run.runId);
      return [echo('tool_a'), null, [echo('tool_b')]];
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'tool_b', input: { text: 'B' } }] }, { text: 'done' }]);
    const run = await defineAgent({ name: 'c7', model, tools: [provider, [echo('tool_c')], undefined] }).ask('go');
    expect(model.calls[0]?.tools?.map((tool) => (tool as { name: string }).name)).toEqual(['tool_a', 'tool_b', 'tool_c']);
    expect(bindings).toEqual([run.runId]);
    expect(run.steps[0]?.toolResults[0]?.value).toBe('B');
  });

  it('C.8 rejects collisions (closing both), long or dotted names, and missing descriptions', async () => {
    expect(() => defineAgent({ name: 'c8', model: scriptedModel([]), tools: [echo('lookup'), echo('lookup')] })).toThrow('Tool name collision: lookup');
    const closed: string[] = [];
    const closing = (label: string) => echo('lookup', { close: () => void closed.push(label) });
    const dynamic = defineAgent({ name: 'c8b', model: scriptedModel([]), tools: [() => closing('first'), () => closing('second')] });
    await expect(dynamic.ask('go')).rejects.toThrow(ConfigurationError);
    await expect(dynamic.ask('go')).rejects.toThrow('Tool name collision: lookup');
    expect(closed.slice(0, 2)).toEqual(['second', 'first']);
    expect(() => echo('x'.repeat(65))).toThrow(`Tool name cannot exceed 64 characters: ${'x'.repeat(65)}`);
    expect(() => echo('atlas.search')).toThrow('Tool name may contain only letters, numbers, underscores, and hyphens: atlas.search');
    expect(() => defineTool({ name: 'quiet', description: '', input: {}, execute: () => 1 })).toThrow('Tool description is required');
    expect(() => echo('x'.repeat(64))).not.toThrow();
  });

  it('C.9 answers an unknown tool with an error result and keeps going', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'ghost', input: {} }] }, { text: 'fine' }]);
    const run = await defineAgent({ name: 'c9', model, tools: [echo('real')] }).ask('go');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]?.toolResults[0]).toMatchObject({ status: 'error', content: 'Unknown tool: ghost' });
  });

  it('C.10 closes each tool once, in reverse order, whatever the outcome', async () => {
    for (const turns of [[{ text: 'ok' }], [{ error: new Error('provider down') }]]) {
      const closed: string[] = [];
      const tools = ['one', 'two', 'three'].map((name) => echo(name, { close: () => void closed.push(name) }));
      const run = await defineAgent({ name: 'c10', model: scriptedModel(turns), tools }).ask('go');
      expect(closed).toEqual(['three', 'two', 'one']);
      const terminal = run.events.at(-1)!;
      expect(['run-stop', 'run-error']).toContain(terminal.type);
    }
  });
});

describe('concurrency (C.11–C.13)', () => {
  const tracked = (name: string, log: string[], options: { exclusive?: boolean; delay?: number } = {}) =>
    echo(name, {
      exclusive: options.exclusive,
      execute: async () => {
        log.push(`start:${name}`);
        await new Promise((resolve) => setTimeout(resolve, options.delay ?? 5));
        log.push(`end:${name}`);
        return name;
      },
    });

  it('C.11 runs a batch with an exclusive tool one call at a time, in request order', async () => {
    const log: string[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: 'slow', input: {} }, { name: 'draft', input: {} }, { name: 'fast', input: {} }] },
      { text: 'ok' },
    ]);
    await defineAgent({ name: 'c11', model, tools: [tracked('slow', log, { delay: 15 }), tracked('draft', log, { exclusive: true }), tracked('fast', log, { delay: 1 })] }).ask('go');
    expect(log).toEqual(['start:slow', 'end:slow', 'start:draft', 'end:draft', 'start:fast', 'end:fast']);
  });

  it('C.12 runs other batches concurrently (at most 8), reports stops in completion order and results in request order', async () => {
    let active = 0;
    let peak = 0;
    const order: string[] = [];
    const tools = Array.from({ length: 10 }, (_, index) =>
      echo(`t${index}`, {
        execute: async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, (10 - index) * 3));
          active--;
          order.push(`t${index}`);
          return `r${index}`;
        },
      }),
    );
    const model = scriptedModel([{ toolCalls: tools.map((tool) => ({ id: tool.name, name: tool.name, input: {} })) }, { text: 'ok' }]);
    const run = await defineAgent({ name: 'c12', model, tools }).ask('go');
    expect(peak).toBe(8);
    const stops = run.events.filter((event) => event.type === 'tool-stop').map((event) => (event as { toolName: string }).toolName);
    expect(stops).toEqual(order);
    expect(stops).not.toEqual(tools.map((tool) => tool.name));
    const sent = model.calls[1]!.prompt.at(-1)!.content as Array<{ toolCallId: string }>;
    expect(sent.map((part) => part.toolCallId)).toEqual(tools.map((tool) => tool.name));
  });

  it('C.13 refuses duplicate tool call ids before any tool runs', async () => {
    let ran = 0;
    const tool = echo('once', { execute: () => ++ran });
    const model = scriptedModel([{ toolCalls: [{ id: 'same', name: 'once', input: {} }, { id: 'same', name: 'once', input: {} }] }]);
    const run = await defineAgent({ name: 'c13', model, tools: [tool] }).ask('go');
    expect(run.outcome).toBe('failed');
    expect(ProtocolError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).message).toBe('The model returned duplicate tool use ids');
    expect(ran).toBe(0);
  });
});

describe('limits (C.14–C.15)', () => {
  it('C.14 fails the run past maxToolCalls', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', input: {} }, { name: 'echo', input: {} }] },
      { toolCalls: [{ name: 'echo', input: {} }, { name: 'echo', input: {} }] },
    ]);
    const run = await defineAgent({ name: 'c14', model, tools: [echo('echo')], limits: { maxToolCalls: 3 } }).ask('go');
    expect(run.outcome).toBe('failed');
    expect((run.error as Error).message).toBe('The agent reached its maximum tool calls');
    expect(run.errorInfo).toEqual({ name: 'ProtocolError', message: 'The agent reached its maximum tool calls' });
  });

  it('fails the run past maxTurns', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', input: {} }] }, { toolCalls: [{ name: 'echo', input: {} }] }]);
    const run = await defineAgent({ name: 'turns', model, tools: [echo('echo')], limits: { maxTurns: 2 } }).ask('go');
    expect((run.error as Error).message).toBe('The agent reached its maximum model turns');
  });

  it('C.15 trims oversized results from the middle, after afterTool, on UTF-8 boundaries, keeping the status', async () => {
    const big = 'é'.repeat(30_000);
    const huge = echo('huge', { execute: () => big });
    const failing = echo('failing', { execute: () => { throw new ToolError(`${'x'.repeat(50_000)}END`); } });
    const model = scriptedModel([{ toolCalls: [{ name: 'huge', input: {} }, { name: 'failing', input: {} }] }, { text: 'ok' }]);
    const seen: number[] = [];
    const run = await defineAgent({
      name: 'c15',
      model,
      tools: [huge, failing],
      hooks: { afterTool: ({ result }) => void seen.push(result.content.length) },
    }).ask('go');
    const [ok, error] = run.steps[0]!.toolResults;
    expect(seen).toEqual(expect.arrayContaining([30_000]));
    expect(ok?.value).toBe(big);
    expect(ok?.content).toMatch(/^é+…5000 tokens truncated…é+$/);
    expect(new TextEncoder().encode(ok!.content.replace(/…\d+ tokens truncated…/, '')).length).toBe(40_000);
    expect(error?.status).toBe('error');
    expect(error?.content).toContain('tokens truncated');
    expect(error?.content.endsWith('END')).toBe(true);
  });
});

describe('hooks', () => {
  it('beforeTool can cancel a call, which the model sees as an error; afterTool can replace a result', async () => {
    let executed = false;
    const tool = echo('delete_everything', { execute: () => { executed = true; return 'gone'; } });
    const model = scriptedModel([{ toolCalls: [{ name: 'delete_everything', input: {} }, { name: 'other', input: {} }] }, { text: 'ok' }]);
    const run = await defineAgent({
      name: 'hooks',
      model,
      tools: [tool, echo('other')],
      hooks: {
        beforeTool: ({ tool }: { tool: Tool }) => (tool.name === 'delete_everything' ? { cancel: 'Not allowed in this workspace' } : undefined),
        afterTool: ({ result }) => (result.toolName === 'other' ? { replace: { ...result, content: 'replaced' } } : undefined),
      },
    }).ask('go');
    expect(executed).toBe(false);
    expect(run.steps[0]?.toolResults.map((result) => [result.status, result.content])).toEqual([
      ['error', 'Not allowed in this workspace'],
      ['success', 'replaced'],
    ]);
  });

  it('beforeModel can rewrite the request and cancel the run', async () => {
    const model = scriptedModel([{ text: 'one' }]);
    await defineAgent({
      name: 'rewrite',
      model,
      hooks: { beforeModel: ({ request }) => ({ replace: { ...request, messages: [...request.messages, { role: 'user' as const, content: 'Also be brief.' }] } }) },
    }).ask('go');
    expect(model.calls[0]?.prompt.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'Also be brief.' }] });
    const cancelled = await defineAgent({ name: 'cancel', model: scriptedModel([]), hooks: { beforeModel: () => ({ cancel: 'budget exhausted' }) } }).ask('go');
    expect(cancelled.outcome).toBe('cancelled');
    expect((cancelled.error as Error).message).toBe('budget exhausted');
  });
});
