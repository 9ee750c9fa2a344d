import { h } from '../dom';
import { codeView } from './highlight';
import { jsonView } from './json-view';

/** A code-mode program: its source, the calls it makes (nested cards), its output and value. */
export class ProgramCard {
  readonly element: HTMLElement;
  /** Where the program's own tool calls go. */
  readonly calls: HTMLElement;
  readonly #status: HTMLElement;
  readonly #observations: HTMLElement;

  constructor(options: { id: string; source: string }) {
    this.#status = h('span', { class: 'status running', role: 'status' }, 'running…');
    this.calls = h('div', { class: 'program-calls', 'aria-label': 'Tool calls made by the program' });
    this.#observations = h('div', { class: 'program-observations' });
    this.element = h(
      'article',
      { class: 'program-card', 'data-program-id': options.id, 'data-status': 'running', 'aria-label': 'Code-mode program' },
      h('header', {}, h('span', { class: 'tool-name' }, 'program'), h('span', { class: 'badge' }, 'code mode'), this.#status),
      h('details', { open: true }, h('summary', {}, 'Source'), codeView(options.source, 'Program source')),
      this.calls,
      this.#observations,
    );
  }

  /** Shows one observation (exec, wait or stop) of the program. */
  observe(options: { via: string; status: string; output: string; value?: unknown; error?: string }): void {
    this.element.dataset.status = options.status;
    this.#status.className = `status ${options.status === 'completed' ? 'success' : options.status === 'still_working' ? 'running' : 'error'}`;
    this.#status.textContent = options.status.replace('_', ' ');
    this.#observations.append(
      h('section', { class: 'observation', 'aria-label': `Observation by ${options.via}` },
        options.output ? h('div', {}, h('h4', {}, 'Output'), h('pre', { class: 'json program-output' }, options.output)) : null,
        options.value !== undefined ? h('div', {}, h('h4', {}, 'Value'), jsonView(options.value, 'Program value')) : null,
        options.error ? h('p', { class: 'outcome failed' }, options.error) : null,
      ),
    );
  }
}
