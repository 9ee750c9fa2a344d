import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import type { ToolCallResult } from 'ghostlight';
import { PLAN_STATE_KEY, readPlan, writeTodos } from 'ghostlight/todos';
import { scriptedModel } from '../support/scripted-model';

/** Runs one write_todos call per input through an agent and returns the results and the final state. */
async function callWith(...inputs: unknown[]): Promise<{ results: ToolCallResult[]; state: Record<string, unknown> }> {
  const model = scriptedModel([...inputs.map((input) => ({ toolCalls: [{ name: 'write_todos', input }] })), { text: 'done' }]);
  const run = await defineAgent({ name: 'planner', model, tools: [writeTodos()] }).ask('plan it');
  return { results: run.steps.flatMap((step) => step.toolResults), state: run.state };
}

describe('write_todos (A1)', () => {
  it('replaces the plan in the run state and returns it', async () => {
    const { results, state } = await callWith(
      { plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'in_progress' }, { id: 'two', title: 'Test', status: 'pending' }] },
      { plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'completed', details: 'done in 2 steps' }] },
    );
    expect(results.map((result) => result.status)).toEqual(['success', 'success']);
    expect(JSON.parse(results[0]!.content)).toEqual({ plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'in_progress' }, { id: 'two', title: 'Test', status: 'pending' }] });
    expect(state[PLAN_STATE_KEY]).toEqual({ plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'completed', details: 'done in 2 steps' }] });
    expect(readPlan(state)?.todos).toHaveLength(1);
    expect(readPlan({})).toBeUndefined();
  });

  it('keeps the plan with a session and updates it in the next run', async () => {
    const sessions = new MemorySessionStore();
    const first = { plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'in_progress' }] };
    const second = { plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'completed' }] };
    const agent = (input: unknown) => defineAgent({ name: 'planner', model: scriptedModel([{ toolCalls: [{ name: 'write_todos', input }] }, { text: 'ok' }]), tools: [writeTodos()] });
    await agent(first).ask('start', { sessions, sessionId: 'p', actorId: 'ada' });
    expect(readPlan((await sessions.load('p', { actorId: 'ada' }))?.state)?.todos[0]?.status).toBe('in_progress');
    const run = await agent(second).ask('finish', { sessions, sessionId: 'p', actorId: 'ada' });
    expect(readPlan(run.state)?.todos[0]?.status).toBe('completed');
    expect(readPlan((await sessions.load('p', { actorId: 'ada' }))?.state)?.todos[0]?.status).toBe('completed');
  });

  it('refuses duplicate ids and more than one todo in progress', async () => {
    const { results } = await callWith(
      { plan_title: 'Duplicates', todos: [{ id: 'one', title: 'First', status: 'pending' }, { id: 'one', title: 'Second', status: 'completed' }] },
      { plan_title: 'Too many active todos', todos: [{ id: 'one', title: 'First', status: 'in_progress' }, { id: 'two', title: 'Second', status: 'in_progress' }] },
    );
    expect(results.map((result) => [result.status, result.content])).toEqual([
      ['error', 'todo IDs must be unique'],
      ['error', 'only one todo may be in progress'],
    ]);
  });

  it('enforces the bounded contract with precise messages', async () => {
    const { results, state } = await callWith(
      { todos: [] },
      { plan_title: 'Plan', todos: [{ id: 'INVALID', title: 'Build', status: 'pending' }] },
      { plan_title: 'Plan', todos: Array.from({ length: 21 }, (_, index) => ({ id: `todo-${index}`, title: 'Build', status: 'pending' })) },
      { plan_title: 'P'.repeat(81), todos: [{ id: 'a', title: 'T'.repeat(49), status: 'done', details: 'd'.repeat(4_001), extra: true }] },
      { plan_title: 'Tab\there', todos: [] },
    );
    expect(results.every((result) => result.status === 'error')).toBe(true);
    expect(results[0]!.content).toBe('Invalid tool input: $.plan_title is required');
    expect(results[1]!.content).toBe('Invalid tool input: $.todos[0].id has an invalid format');
    expect(results[2]!.content).toBe('Invalid tool input: $.todos must contain at most 20 items');
    for (const message of [
      '$.plan_title must have at most 80 characters',
      '$.todos[0].title must have at most 48 characters',
      '$.todos[0].status must be one of "pending", "in_progress", "completed"',
      '$.todos[0].details must have at most 4000 characters',
      '$.todos[0].extra is not allowed',
    ]) {
      expect(results[3]!.content).toContain(message);
    }
    expect(results[4]!.content).toBe('Invalid tool input: $.plan_title has an invalid format');
    expect(state[PLAN_STATE_KEY]).toBeUndefined();
  });

  it('trims titles before checking them, and refuses titles that are only blank', async () => {
    const { results, state } = await callWith(
      { plan_title: '  Ship it  ', todos: [{ id: 'one', title: '  Build  ', status: 'pending' }] },
      { plan_title: '   ', todos: [] },
      { plan_title: 'Plan', todos: [{ id: 'one', title: '   ', status: 'pending' }] },
    );
    expect(results[0]!.status).toBe('success');
    expect(results[1]!.content).toContain('$.plan_title must have at least 1 characters');
    expect(results[2]!.content).toContain('$.todos[0].title must have at least 1 characters');
    expect(readPlan(state)).toEqual({ plan_title: 'Ship it', todos: [{ id: 'one', title: 'Build', status: 'pending' }] });
  });

  it('describes itself to the model with LittleGhost’s contract', () => {
    const tool = writeTodos();
    expect(tool.name).toBe('write_todos');
    expect(tool.description).toMatch(/^Replace the plan for meaningful multi-step work\./);
    expect(tool.input.jsonSchema).toMatchObject({ required: ['plan_title', 'todos'], additionalProperties: false, properties: { todos: { maxItems: 20 } } });
    expect(writeTodos({ name: 'plan' }).name).toBe('plan');
  });
});

describe('write_todos with the offline demo model', () => {
  it('publishes a plan for a request of several steps, works through it one step at a time and answers', async () => {
    const { createOfflineDemoModel } = await import('ghostlight/demo-model');
    const { helpCenterLookup, orderStatus } = await import('../../worker/demo-agent');
    const agent = defineAgent({ name: 'planner', model: createOfflineDemoModel(), tools: [writeTodos(), helpCenterLookup, orderStatus] });
    const run = await agent.ask('Check the shipping policy, then look up order 481.', { context: { accountId: 'acct-1' } });
    expect(run.outcome).toBe('completed');
    const calls = run.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
    expect(calls).toEqual(['write_todos', 'help_center_lookup', 'write_todos', 'order_status', 'write_todos']);
    const plans = run.steps.flatMap((step) => step.toolResults).filter((result) => result.toolName === 'write_todos').map((result) => (result.value as { todos: Array<{ status: string }> }).todos.map((todo) => todo.status));
    expect(plans).toEqual([
      ['in_progress', 'pending'],
      ['completed', 'in_progress'],
      ['completed', 'completed'],
    ]);
    expect(readPlan(run.state)?.todos.map((todo) => todo.title)).toEqual(['Check the shipping policy', 'Look up order 481']);
    expect(run.response).toContain('All 2 steps of the plan are done');
    expect(run.response).toContain('three to five business days');
    expect(run.response).toContain('shipped on Monday');
  });

  it('answers a simple request without a plan', async () => {
    const { createOfflineDemoModel } = await import('ghostlight/demo-model');
    const run = await defineAgent({ name: 'simple', model: createOfflineDemoModel(), tools: [writeTodos()] }).ask('Hello there');
    expect(run.steps.flatMap((step) => step.toolCalls)).toEqual([]);
    expect(readPlan(run.state)).toBeUndefined();
  });
});
