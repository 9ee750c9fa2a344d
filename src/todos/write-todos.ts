import type { JsonSchema } from '../schema/json-schema.ts';
import type { ResolvedSchema } from '../schema/resolve-schema.ts';
import { validateJson } from '../schema/validate-json.ts';
import { markTool } from '../tool/tool.ts';
import type { Tool } from '../tool/tool.ts';
import { assertToolName } from '../tool/tool-name.ts';
import { ToolError } from '../tool/tool-error.ts';

/** Where the plan lives in the run's state (LittleGhost's `little_ghost.plan`). */
export const PLAN_STATE_KEY = 'ghostlight.plan';

/** A todo's status. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One step of the plan, as the model writes it. */
export interface Todo {
  /** A stable id: lower-case letters, digits, `_` and `-`, starting with a letter or digit (1–64). */
  readonly id: string;
  /** A short user-facing title (1–48 characters, trimmed). */
  readonly title: string;
  readonly status: TodoStatus;
  /** Longer private working notes (≤ 4,000 characters). */
  readonly details?: string | null;
}

/** The plan: a title and at most 20 todos, at most one in progress. */
export interface TodoPlan {
  readonly plan_title: string;
  readonly todos: readonly Todo[];
}

const NO_CONTROL_CHARACTERS = '^[^\\x00-\\x1f\\x7f]+$';

/** The tool's input schema, LittleGhost's contract word for word. */
export const WRITE_TODOS_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    plan_title: { type: 'string', minLength: 1, maxLength: 80, pattern: NO_CONTROL_CHARACTERS },
    todos: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
          title: { type: 'string', minLength: 1, maxLength: 48, pattern: NO_CONTROL_CHARACTERS },
          status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          details: { type: ['string', 'null'], maxLength: 4_000 },
        },
        required: ['id', 'title', 'status'],
        additionalProperties: false,
      },
    },
  },
  required: ['plan_title', 'todos'],
  additionalProperties: false,
}) as JsonSchema;

const DESCRIPTION = [
  'Replace the plan for meaningful multi-step work. Skip this for simple requests. Give the plan and every todo a',
  'short user-facing title. Put longer private working notes in details. Publish the full list before substantive',
  'work, allow at most one in-progress step, and replace the full list as work progresses. Preserve IDs for todos',
  'that remain, update titles and statuses in place, never reuse an ID for a different todo, and remove todos that',
  'no longer apply. Complete every remaining todo before the final response; use an empty list when no plan remains.',
].join(' ');

/** Options of {@link writeTodos}. */
export interface WriteTodosOptions {
  /** The model-facing name (default `write_todos`). */
  readonly name?: string | undefined;
}

/**
 * The built-in planning tool (LittleGhost's `write_todos`): the model
 * publishes its plan for multi-step work and replaces it, whole, as the work
 * progresses. Titles are trimmed before they are checked; at most one todo
 * may be in progress ("only one todo may be in progress") and ids are unique
 * ("todo IDs must be unique"). The plan is stored in the run's state under
 * `ghostlight.plan` (so a session keeps it) and returned as the tool's value,
 * which is what a UI shows as a live checklist (`tool-stop` events).
 *
 * @example
 * defineAgent({ name: 'researcher', model, tools: [writeTodos()] });
 */
export function writeTodos(options: WriteTodosOptions = {}): Tool<TodoPlan, TodoPlan> {
  const name = options.name ?? 'write_todos';
  assertToolName(name);
  return markTool<TodoPlan, TodoPlan>({
    name,
    description: DESCRIPTION,
    input: planSchema,
    output: undefined,
    exclusive: false,
    availableIf: undefined,
    close: undefined,
    execute(input, binding) {
      if (input.todos.filter((todo) => todo.status === 'in_progress').length > 1) throw new ToolError('only one todo may be in progress');
      if (new Set(input.todos.map((todo) => todo.id)).size !== input.todos.length) throw new ToolError('todo IDs must be unique');
      const plan: TodoPlan = { plan_title: input.plan_title, todos: input.todos.map((todo) => ({ ...todo })) };
      binding.state[PLAN_STATE_KEY] = structuredClone(plan) as never;
      return plan;
    },
  });
}

/** The plan a run (or a session's state) holds, if any. */
export function readPlan(state: Readonly<Record<string, unknown>> | undefined): TodoPlan | undefined {
  const plan = state?.[PLAN_STATE_KEY] as unknown;
  if (typeof plan !== 'object' || plan === null || !Array.isArray((plan as TodoPlan).todos)) return undefined;
  return plan as TodoPlan;
}

/** Trims the user-facing titles, then checks the contract with the seeds' messages. */
const planSchema: ResolvedSchema<TodoPlan> = {
  jsonSchema: WRITE_TODOS_SCHEMA,
  async check(value) {
    const normalized = trimTitles(value);
    const issues = validateJson(WRITE_TODOS_SCHEMA, normalized);
    return issues.length > 0 ? { success: false, issues } : { success: true, value: normalized as TodoPlan };
  },
};

function trimTitles(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const input = { ...(value as Record<string, unknown>) };
  if (typeof input.plan_title === 'string') input.plan_title = input.plan_title.trim();
  if (Array.isArray(input.todos)) {
    input.todos = input.todos.map((todo: unknown) => {
      if (typeof todo !== 'object' || todo === null || Array.isArray(todo)) return todo;
      const copy = { ...(todo as Record<string, unknown>) };
      if (typeof copy.title === 'string') copy.title = copy.title.trim();
      return copy;
    });
  }
  return input;
}
