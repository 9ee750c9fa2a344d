import { h, replaceChildren } from '../dom';
import type { SubagentView } from '../view-event';

const LABELS: Record<string, string> = {
  idle: 'done',
  queued: 'queued…',
  running: 'working…',
  persisting: 'saving…',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * A subagent, nested under the call that spawned it: its path and kind, its
 * status and turn, the tool calls it makes, and its answer once the lead
 * receives it (the lifecycle events carry no message content; the answer
 * comes from the lead's own tool result).
 */
export class SubagentCard {
  readonly element: HTMLElement;
  readonly #status: HTMLElement;
  readonly #turn: HTMLElement;
  readonly #calls: HTMLElement;
  readonly #answer: HTMLElement;
  readonly #toolRows = new Map<string, HTMLElement>();

  constructor(view: SubagentView) {
    this.#status = h('span', { class: 'status running', role: 'status' }, LABELS[view.status] ?? view.status);
    this.#turn = h('span', { class: 'subagent-turn' });
    this.#calls = h('ul', { class: 'subagent-calls', 'aria-label': `Tool calls of ${view.subagentId}` });
    this.#answer = h('div', { class: 'subagent-answer' });
    this.element = h(
      'article',
      { class: 'subagent-card', 'data-subagent': view.subagentId, 'data-status': view.status, 'aria-label': `Subagent ${view.subagentId}` },
      h('header', {}, h('span', { class: 'tool-name' }, view.subagentId), h('span', { class: 'badge', title: 'subagent kind' }, view.kind), this.#turn, this.#status),
      this.#calls,
      this.#answer,
    );
    this.update(view);
  }

  /** Applies one lifecycle event. */
  update(view: SubagentView): void {
    this.element.dataset.status = view.status;
    this.#status.className = `status ${view.status === 'idle' ? 'success' : view.status === 'failed' || view.status === 'cancelled' ? 'error' : 'running'}`;
    this.#status.textContent = LABELS[view.status] ?? view.status;
    if (view.turn !== undefined) this.#turn.textContent = `turn ${view.turn}`;
    if (view.event === 'tool_started' && view.toolCallId) {
      const row = h('li', { 'data-status': 'running' }, h('span', { class: 'tool-name' }, view.toolName ?? 'tool'), ' ', h('span', { class: 'status running' }, 'running…'));
      this.#toolRows.set(view.toolCallId, row);
      this.#calls.append(row);
    }
    if (view.event === 'tool_finished' && view.toolCallId) {
      const row = this.#toolRows.get(view.toolCallId);
      if (row) {
        row.dataset.status = view.toolStatus ?? 'success';
        row.lastElementChild!.className = `status ${view.toolStatus === 'error' ? 'error' : 'success'}`;
        row.lastElementChild!.textContent = view.toolStatus === 'error' ? 'error' : 'done';
      }
    }
  }

  /** Shows the answer the lead received from this subagent. */
  answer(text: string): void {
    replaceChildren(this.#answer, h('details', { open: true }, h('summary', {}, 'Answer'), h('p', { class: 'subagent-response' }, text)));
  }
}
