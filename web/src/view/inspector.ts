import { h, replaceChildren } from '../dom';

/** One tab of the inspector. */
export interface InspectorTab {
  id: string;
  label: string;
  render(): Promise<HTMLElement>;
}

/** Tabs beside the chat (timeline, workspace, skills), keyboard-operable as an ARIA tab list. */
export class Inspector {
  readonly element: HTMLElement;
  readonly #panel = h('div', { class: 'inspector-panel', role: 'tabpanel' });
  readonly #buttons: HTMLButtonElement[];
  readonly #tabs: readonly InspectorTab[];

  constructor(tabs: readonly InspectorTab[]) {
    this.#tabs = tabs;
    this.#buttons = tabs.map((tab, index) =>
      h('button', { type: 'button', role: 'tab', id: `tab-${tab.id}`, 'data-tab': tab.id, 'aria-selected': String(index === 0), tabindex: index === 0 ? 0 : -1, onclick: () => void this.show(tab.id), onkeydown: (event: Event) => this.#arrow(event as KeyboardEvent, index) }, tab.label),
    );
    this.element = h('div', { class: 'inspector-tabs' }, h('div', { role: 'tablist', 'aria-label': 'Inspector' }, ...this.#buttons), this.#panel);
    void this.show(tabs[0]!.id);
  }

  /** Shows one tab. */
  async show(id: string): Promise<void> {
    const tab = this.#tabs.find((candidate) => candidate.id === id)!;
    for (const button of this.#buttons) {
      const selected = button.dataset.tab === id;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    this.#panel.setAttribute('aria-labelledby', `tab-${id}`);
    replaceChildren(this.#panel, await tab.render());
  }

  #arrow(event: KeyboardEvent, index: number): void {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = this.#buttons[(index + (event.key === 'ArrowRight' ? 1 : this.#buttons.length - 1)) % this.#buttons.length]!;
    next.focus();
    void this.show(next.dataset.tab!);
  }
}
