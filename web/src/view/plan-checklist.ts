import { h, replaceChildren } from '../dom';

/** A plan as `write_todos` returns it. */
export interface PlanView {
  plan_title: string;
  todos: Array<{ id: string; title: string; status: 'pending' | 'in_progress' | 'completed' }>;
}

const LABELS = { pending: 'to do', in_progress: 'in progress', completed: 'done' } as const;

/** Reads a `write_todos` result (its value, or its JSON content over AG-UI) as a plan. */
export function planOf(value: unknown, content: string): PlanView | undefined {
  let candidate = value;
  if (candidate === undefined) {
    try {
      candidate = JSON.parse(content);
    } catch {
      return undefined;
    }
  }
  const plan = candidate as PlanView | undefined;
  return typeof plan?.plan_title === 'string' && Array.isArray(plan.todos) ? plan : undefined;
}

/** The agent's plan as a live checklist: replaced whole each time the agent writes it. */
export class PlanChecklist {
  readonly element = h('section', { class: 'plan', 'aria-label': 'Plan', 'aria-live': 'polite' });

  /** Shows the latest plan. */
  update(plan: PlanView): void {
    const done = plan.todos.filter((todo) => todo.status === 'completed').length;
    this.element.dataset.done = String(done === plan.todos.length);
    replaceChildren(
      this.element,
      h('h3', {}, plan.plan_title, h('span', { class: 'plan-progress' }, ` ${done}/${plan.todos.length}`)),
      h(
        'ol',
        {},
        ...plan.todos.map((todo) =>
          h(
            'li',
            { 'data-todo': todo.id, 'data-status': todo.status },
            h('span', { class: 'todo-mark', 'aria-hidden': 'true' }, todo.status === 'completed' ? '✓' : todo.status === 'in_progress' ? '▸' : '○'),
            h('span', { class: 'todo-title' }, todo.title),
            h('span', { class: 'todo-status' }, LABELS[todo.status] ?? todo.status),
          ),
        ),
      ),
    );
  }
}
