import { duration, h } from '../dom';

/** The run timeline: what happened when, relative to the start of the run. */
export class Timeline {
  readonly element = h('ol', { class: 'timeline', 'aria-label': 'Run timeline' });
  #started = performance.now();

  /** Starts a new run's section. */
  start(label: string): void {
    this.#started = performance.now();
    this.element.append(h('li', { class: 'timeline-run' }, label));
    this.add('run started');
  }

  /** Adds one entry. */
  add(text: string, kind = 'info'): void {
    this.element.append(h('li', { class: `timeline-entry ${kind}` }, h('time', {}, `+${duration(performance.now() - this.#started)}`), ` ${text}`));
    this.element.scrollTop = this.element.scrollHeight;
  }
}
