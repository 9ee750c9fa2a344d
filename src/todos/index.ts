/**
 * `write_todos`, the built-in planning tool: the model publishes and updates
 * a plan that the application shows as a live checklist.
 *
 * @module ghostlight/todos
 */
export { PLAN_STATE_KEY, readPlan, WRITE_TODOS_SCHEMA, writeTodos } from './write-todos.ts';
export type { Todo, TodoPlan, TodoStatus, WriteTodosOptions } from './write-todos.ts';
