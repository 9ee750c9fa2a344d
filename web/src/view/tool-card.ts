import { duration, h, replaceChildren } from '../dom';
import { jsonView } from './json-view';

/** A card for one tool call: name, who called it, arguments, status, duration, result. */
export class ToolCard {
  readonly element: HTMLElement;
  readonly #status: HTMLElement;
  readonly #result: HTMLElement;

  readonly #collapsed: boolean;

  /** `collapsed`: arguments and result start folded (a call shown elsewhere, like the plan of write_todos). */
  constructor(options: { id: string; name: string; input: unknown; caller: string; collapsed?: boolean }) {
    this.#collapsed = options.collapsed === true;
    this.#status = h('span', { class: 'status running', role: 'status' }, 'running…');
    this.#result = h('div', { class: 'tool-result' });
    this.element = h(
      'article',
      { class: 'tool-card', 'data-tool': options.name, 'data-tool-call-id': options.id, 'data-status': 'running', 'aria-label': `Tool call ${options.name}` },
      h('header', {}, h('span', { class: 'tool-name' }, options.name), options.caller === 'code' ? h('span', { class: 'badge', title: 'called by a code-mode program' }, 'from code') : null, this.#status),
      h('details', { open: !this.#collapsed }, h('summary', {}, 'Arguments'), jsonView(options.input, `Arguments of ${options.name}`)),
      this.#result,
    );
  }

  /** Whether the call has not finished. */
  get running(): boolean {
    return this.element.dataset.status === 'running';
  }

  /** Marks a call the run abandoned (stopped, deadline, failure) before it finished. */
  abandon(outcome: string): void {
    this.element.dataset.status = 'abandoned';
    this.#status.className = 'status error';
    this.#status.textContent = outcome === 'cancelled' ? 'stopped' : `not finished (${outcome})`;
  }

  /** Shows the outcome. */
  finish(options: { status: 'success' | 'error'; content: string; durationMs: number }): void {
    this.element.dataset.status = options.status;
    this.#status.className = `status ${options.status}`;
    this.#status.textContent = `${options.status === 'success' ? 'done' : 'error'} · ${duration(options.durationMs)}`;
    replaceChildren(this.#result, h('details', { open: options.status === 'error' || (!this.#collapsed && options.content.length < 400) }, h('summary', {}, 'Result'), jsonView(options.content, 'Tool result')));
  }
}
