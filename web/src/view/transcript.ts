import { h } from '../dom';
import { ProgramCard } from './program-card';
import { SubagentCard } from './subagent-card';
import type { SubagentView } from '../view-event';
import { ToolCard } from './tool-card';
import { jsonView } from './json-view';
import { PlanChecklist } from './plan-checklist';
import type { PlanView } from './plan-checklist';

/** The conversation: user messages, streamed assistant text, tool cards. */
export class Transcript {
  readonly element = h('div', { class: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: 0 });
  readonly #cards = new Map<string, ToolCard>();
  readonly #programs = new Map<string, ProgramCard>();
  readonly #subagents = new Map<string, SubagentCard>();
  #turn: HTMLElement | undefined;
  #text: HTMLElement | undefined;
  #plan: PlanChecklist | undefined;

  /** Shows the user's message and opens the assistant's turn. */
  user(text: string): void {
    // Ids are unique within a run, not across runs: later events only ever concern the new turn.
    this.#cards.clear();
    this.#programs.clear();
    this.#plan = undefined;
    this.#subagents.clear();
    this.element.append(h('div', { class: 'message user' }, h('span', { class: 'who' }, 'You'), h('p', {}, text)));
    this.#turn = h('div', { class: 'message assistant', 'aria-busy': 'true' }, h('span', { class: 'who' }, 'Agent'));
    this.#text = undefined;
    this.element.append(this.#turn);
    this.#scroll();
  }

  /** Shows an interjection sent while the agent works, inside its turn; `answered` marks it once the model replied. */
  interjection(text: string): { answered(reply: string): void; failed(reason: string): void } {
    const status = h('span', { class: 'status' }, 'waiting for the next model turn');
    const element = h('div', { class: 'interjection', 'data-status': 'pending' }, h('span', { class: 'who' }, 'You, mid-run'), h('p', {}, text), status);
    this.#turnElement().append(element);
    this.#text = undefined;
    this.#scroll();
    return {
      answered: (reply) => {
        element.dataset.status = 'answered';
        status.textContent = reply ? 'answered' : 'delivered';
      },
      failed: (reason) => {
        element.dataset.status = 'failed';
        status.textContent = reason;
      },
    };
  }

  /** Appends streamed text. */
  text(delta: string): void {
    if (!this.#text) {
      this.#text = h('p', { class: 'text' });
      this.#turnElement().append(this.#text);
    }
    this.#text.textContent += delta;
    this.#scroll();
  }

  /** Adds a tool card; text after it starts a new paragraph. */
  toolStart(options: { id: string; name: string; input: unknown; caller: string; parentId?: string }): void {
    // The plan of write_todos is shown as the checklist; its cards stay folded.
    const card = new ToolCard({ ...options, collapsed: options.name === 'write_todos' });
    this.#cards.set(options.id, card);
    const program = options.parentId === undefined ? undefined : this.#programs.get(options.parentId);
    (program?.calls ?? this.#turnElement()).append(card.element);
    this.#text = undefined;
    this.#scroll();
  }

  /** Shows a tool call's outcome (and, for the subagent tools, the answers it carries on the subagents' cards). */
  toolStop(options: { id: string; status: 'success' | 'error'; content: string; durationMs: number }): void {
    this.#cards.get(options.id)?.finish(options);
    if (options.status === 'success' && this.#subagents.size > 0) this.#subagentAnswers(options.content);
  }

  /** Shows a subagent's lifecycle: a card nested under the call that spawned it, updated in place. */
  subagent(view: SubagentView): void {
    const card = this.#subagents.get(view.subagentId);
    if (card) return card.update(view);
    const created = new SubagentCard(view);
    this.#subagents.set(view.subagentId, created);
    const parent = view.parentToolCallId === undefined ? undefined : this.#cards.get(view.parentToolCallId);
    (parent?.element ?? this.#turnElement()).append(created.element);
    this.#scroll();
  }

  #subagentAnswers(content: string): void {
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      return;
    }
    const record = value as { subagents?: unknown; subagent_id?: unknown; response?: unknown };
    const snapshots = Array.isArray(record.subagents) ? record.subagents : [record];
    for (const snapshot of snapshots as Array<{ subagent_id?: unknown; response?: unknown }>) {
      const card = typeof snapshot.subagent_id === 'string' ? this.#subagents.get(snapshot.subagent_id) : undefined;
      if (card && snapshot.response !== undefined) card.answer(typeof snapshot.response === 'string' ? snapshot.response : JSON.stringify(snapshot.response));
    }
  }

  /** Shows the agent's plan (write_todos) as a checklist at the top of the turn, updated in place. */
  plan(plan: PlanView): void {
    if (!this.#plan) {
      this.#plan = new PlanChecklist();
      const turn = this.#turnElement();
      turn.insertBefore(this.#plan.element, turn.children[1] ?? null);
    }
    this.#plan.update(plan);
    this.#scroll();
  }

  /** Shows a code-mode program starting. */
  programStart(options: { id: string; source: string }): void {
    const card = new ProgramCard(options);
    this.#programs.set(options.id, card);
    this.#turnElement().append(card.element);
    this.#text = undefined;
    this.#scroll();
  }

  /** Shows an observation of a program. */
  programObserve(options: { id: string; via: string; status: string; output: string; value?: unknown; error?: string }): void {
    this.#programs.get(options.id)?.observe(options);
    this.#scroll();
  }

  /** Shows the files a call produced, under its card (or at the end of the turn). */
  artifacts(id: string, element: HTMLElement): void {
    const holder = this.#cards.get(id)?.element ?? this.#programs.get(id)?.element ?? this.#turnElement();
    holder.append(element);
  }

  /** Adds any element to the current turn (programs, artifacts, results). */
  attach(element: HTMLElement): void {
    this.#turnElement().append(element);
    this.#text = undefined;
    this.#scroll();
  }

  /** Closes the turn with its outcome. */
  end(options: { outcome: string; response: string; output?: unknown; error?: string | undefined }): void {
    const turn = this.#turnElement();
    turn.removeAttribute('aria-busy');
    // A waiting run's calls are not abandoned: they continue once approved.
    if (options.outcome !== 'waiting') for (const card of this.#cards.values()) if (card.running) card.abandon(options.outcome);
    turn.dataset.outcome = options.outcome;
    const structured = options.output !== undefined && typeof options.output !== 'string';
    if (!this.#text && options.response && options.outcome === 'completed' && !structured) this.text(options.response);
    if (structured) {
      turn.append(h('section', { class: 'structured', 'aria-label': 'Structured result' }, h('h3', {}, 'Structured result'), jsonView(options.output, 'Structured result')));
    }
    if (options.outcome !== 'completed') {
      turn.append(h('p', { class: `outcome ${options.outcome}`, role: 'status' }, `Run ${options.outcome}${options.error ? `: ${options.error}` : ''}`));
    }
    this.#text = undefined;
    this.#scroll();
  }

  /** Marks where the conversation switched to another example. */
  divider(text: string): void {
    this.element.append(h('p', { class: 'divider', role: 'separator' }, text));
    this.#turn = undefined;
  }

  /** Clears the conversation. */
  clear(): void {
    this.element.replaceChildren();
    this.#cards.clear();
    this.#programs.clear();
    this.#subagents.clear();
    this.#turn = undefined;
  }

  #turnElement(): HTMLElement {
    if (!this.#turn) {
      this.#turn = h('div', { class: 'message assistant' }, h('span', { class: 'who' }, 'Agent'));
      this.element.append(this.#turn);
    }
    return this.#turn;
  }

  #scroll(): void {
    this.element.scrollTop = this.element.scrollHeight;
  }
}
