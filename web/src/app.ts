import type { Askable } from 'ghostlight';
import { h, replaceChildren } from './dom';
import type { ExampleInfo } from './examples/example';
import { examples } from './examples/index';
import { LocalRunner } from './local-runner';
import { loadSettings, saveSettings } from './settings';
import type { Settings } from './settings';
import type { Runner, ViewEvent } from './view-event';
import { artifactGallery } from './view/artifact-view';
import { approvalCard } from './view/approval-card';
import type { ApprovalView } from './view-event';
import { AssemblyDiagram } from './view/assembly-diagram';
import { planOf } from './view/plan-checklist';
import { Inspector } from './view/inspector';
import { skillsView } from './view/skills-view';
import { WorkspaceView } from './view/workspace-view';
import { settingsForm } from './view/settings-form';
import { Timeline } from './view/timeline';
import { TraceView } from './view/trace-view';
import { Transcript } from './view/transcript';
import { WorkerRunner } from './worker-runner';

/** Builds the playground into `root`. */
export function createApp(root: HTMLElement): void {
  let settings: Settings = loadSettings();
  let example: ExampleInfo = examples[0]!;
  let controller: AbortController | undefined;
  /** The running assembly's diagram, when the example is one. */
  let diagram: AssemblyDiagram | undefined;
  const agents = new Map<string, Promise<Askable>>();
  /** Tool names by call id, for the calls of the current run (a plan is shown from write_todos results). */
  const toolNames = new Map<string, string>();
  const exampleFor = (id: string) => examples.find((candidate) => candidate.id === id) ?? example;
  const local = new LocalRunner(
    (id) => agentFor(id),
    async (id) => (await (await exampleFor(id).load()).askOptions?.()) ?? {},
  );
  const remote = new WorkerRunner('', (id) => exampleFor(id).workerRoute ?? 'ag-ui');
  const runner = (): Runner => (settings.location === 'worker' && example.onWorker ? remote : local);

  const transcript = new Transcript();
  const timeline = new Timeline();
  const trace = new TraceView();
  const inspector = new Inspector([
    { id: 'timeline', label: 'Timeline', render: async () => timeline.element },
    { id: 'trace', label: 'Trace', render: async () => trace.element },
    { id: 'workspace', label: 'Workspace', render: async () => workspacePanel() },
    { id: 'skills', label: 'Skills', render: async () => skillsView(await (await import('./examples/skills')).loadPlaygroundCatalog()) },
  ]);
  let workspaceView: WorkspaceView | undefined;

  async function workspacePanel(): Promise<HTMLElement> {
    if (!workspaceView) {
      const { playgroundWorkspace, resetWorkspace } = await import('./playground-workspace');
      const { workspace } = await playgroundWorkspace();
      workspaceView = new WorkspaceView(workspace, { reset: () => resetWorkspace(workspace) });
    }
    await workspaceView.refresh();
    return workspaceView.element;
  }
  const prompt = h('textarea', { id: 'prompt', rows: 3, required: true, placeholder: 'Ask the agent…', 'aria-label': 'Message' });
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  const stop = h('button', { type: 'button', disabled: true, onclick: () => controller?.abort() }, 'Stop');
  const interjectButton = h('button', { type: 'button', class: 'interject', disabled: true, title: 'Send the message to the run while it works', onclick: () => void interjectNow() }, 'Interject');

  /** Sends the composer's text to the run in progress (SPEC A18: delivered at the next model boundary). */
  async function interjectNow(): Promise<void> {
    const current = runner();
    const text = prompt.value.trim();
    if (!controller || !current.interject || !text) return;
    prompt.value = '';
    const shown = transcript.interjection(text);
    timeline.add('interjection sent');
    try {
      const reply = await current.interject(text);
      shown.answered(reply.text);
      timeline.add('interjection answered', 'success');
    } catch (error) {
      shown.failed((error as Error).message);
      timeline.add(`interjection: ${(error as Error).message}`, 'error');
    }
  }
  const exampleInfo = h('div', { class: 'example-info' });
  const exampleList = h('ul', { class: 'examples', 'aria-label': 'Example agents' });

  function agentFor(id: string): Promise<Askable> {
    let agent = agents.get(id);
    if (!agent) {
      // The agent runtime (core, AI SDK, QuickJS glue) loads on the first run, not with the page.
      agent = Promise.all([exampleFor(id).load(), import('./models')]).then(async ([loaded, { modelFor }]) => loaded.create(await modelFor(settings, loaded.respond)));
      agents.set(id, agent);
      agent.catch(() => agents.delete(id));
    }
    return agent;
  }

  function pick(next: ExampleInfo): void {
    if (next !== example && transcript.element.childElementCount > 0) transcript.divider(`Now talking to: ${next.title}`);
    example = next;
    for (const item of exampleList.querySelectorAll('button')) item.setAttribute('aria-pressed', String(item.dataset.example === next.id));
    replaceChildren(
      exampleInfo,
      h('h2', {}, next.title),
      h('p', {}, next.description),
      next.onWorker ? null : h('p', { class: 'hint' }, 'This example runs in this tab only (the Worker serves the help-center agent).'),
      h('p', { class: 'hint' }, 'Try:'),
      h('ul', { class: 'suggestions' }, ...next.suggestions.map((text) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => ((prompt.value = text), prompt.focus()) }, text)))),
    );
    prompt.value = next.suggestions[0] ?? '';
    void restorePending(next);
  }

  /** A run of this example that waits for approval in the tab's storage (e.g. before a reload) gets its cards again. */
  async function restorePending(next: ExampleInfo): Promise<void> {
    const active = runner();
    if (!active.pending || !next.keepsSessions) return;
    const approvals = await active.pending(next.id).catch(() => []);
    if (approvals.length === 0 || example !== next) return;
    transcript.divider(`${next.title}: a run waits for your approval`);
    askApproval(approvals, next.id);
  }

  /** Shows approval cards for a waiting run; once every call is answered, the run continues. */
  function askApproval(approvals: readonly ApprovalView[], agentId: string): void {
    const answers: Array<{ approvalId: string; approved: boolean; reason?: string }> = [];
    for (const approval of approvals) {
      transcript.attach(approvalCard(approval, (approved, reason) => {
        answers.push({ approvalId: approval.approvalId, approved, ...(reason ? { reason } : {}) });
        timeline.add(`${approval.toolName} ${approved ? 'approved' : 'denied'}`, approved ? 'success' : 'error');
        if (answers.length < approvals.length) return;
        const current = runner();
        const resume = current.resume;
        if (resume) void drive(`${approved ? 'Approved' : 'Denied'} ${approval.toolName}`, (signal) => resume.call(current, agentId, answers, signal));
      }));
    }
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    const input = prompt.value.trim();
    if (controller) return void interjectNow();
    if (!input) return;
    prompt.value = '';
    await drive(input, (signal) => runner().run(example.id, input, signal));
  }

  /** Runs one turn (a message, or approval answers that continue a waiting run) and shows what it does. */
  async function drive(label: string, start: (signal: AbortSignal) => AsyncIterable<ViewEvent>): Promise<void> {
    if (controller) return;
    controller = new AbortController();
    send.setAttribute('disabled', '');
    stop.removeAttribute('disabled');
    if (runner().interject) interjectButton.removeAttribute('disabled');
    transcript.user(label);
    toolNames.clear();
    timeline.start(`${example.title} · ${runner().label}`);
    diagram = undefined;
    try {
      const loaded = await example.load();
      if (loaded.diagram && runner() === local) {
        diagram = new AssemblyDiagram(loaded.diagram(await agentFor(example.id)), example.title);
        transcript.attach(diagram.element);
      }
      for await (const view of start(controller.signal)) show(view);
    } catch (error) {
      const aborted = controller.signal.aborted;
      transcript.end({ outcome: aborted ? 'cancelled' : 'failed', response: '', error: aborted ? undefined : (error as Error).message });
      timeline.add(aborted ? 'stopped' : `error: ${(error as Error).message}`, 'error');
    } finally {
      controller = undefined;
      send.removeAttribute('disabled');
      stop.setAttribute('disabled', '');
      interjectButton.setAttribute('disabled', '');
      prompt.focus();
    }
  }

  function show(view: ViewEvent): void {
    switch (view.type) {
      case 'assembly':
        if (view.participant !== undefined && view.state) diagram?.step(view.participant, view.state, view.stepId);
        timeline.add(view.label, view.state === 'failed' ? 'error' : view.state === 'completed' ? 'success' : 'info');
        break;
      case 'turn-start':
        timeline.add(`model turn ${view.turn}`);
        break;
      case 'text':
        transcript.text(view.delta);
        break;
      case 'tool-start':
        toolNames.set(view.id, view.name);
        transcript.toolStart(view);
        timeline.add(`${view.caller === 'code' ? 'program calls' : 'tool'} ${view.name}`);
        break;
      case 'tool-stop': {
        transcript.toolStop(view);
        const plan = view.status === 'success' && toolNames.get(view.id) === 'write_todos' ? planOf(view.value, view.content) : undefined;
        if (plan) {
          transcript.plan(plan);
          timeline.add(`plan updated (${plan.todos.filter((todo) => todo.status === 'completed').length}/${plan.todos.length} done)`);
        }
        timeline.add(`tool finished (${view.status})`, view.status);
        break;
      }
      case 'program-start':
        transcript.programStart(view);
        timeline.add('program started');
        break;
      case 'program-observe':
        transcript.programObserve(view);
        timeline.add(`program ${view.status.replace('_', ' ')} (${view.via})`, view.status === 'completed' ? 'success' : view.status === 'still_working' ? 'info' : 'error');
        break;
      case 'subagent':
        transcript.subagent(view);
        if (view.event === 'spawned' || view.event === 'turn_finished' || view.event === 'turn_failed' || view.event === 'cancelled') {
          timeline.add(`subagent ${view.subagentId} ${view.event.replace('_', ' ')}`, view.event === 'turn_finished' ? 'success' : view.event === 'spawned' ? 'info' : 'error');
        }
        break;
      case 'artifacts':
        transcript.artifacts(view.id, artifactGallery(view.items));
        timeline.add(`${view.items.length} file${view.items.length === 1 ? '' : 's'} produced`);
        break;
      case 'trace':
        trace.show(view.operations, view.where);
        break;
      case 'end':
        diagram?.finish(view.outcome);
        transcript.end(view);
        timeline.add(`run ${view.outcome}`, view.outcome === 'completed' ? 'success' : view.outcome === 'waiting' ? 'info' : 'error');
        if (view.outcome === 'waiting' && view.approvals) askApproval(view.approvals, example.id);
        break;
      default:
        break;
    }
  }

  const form = h('form', { class: 'composer', onsubmit: (event: Event) => void submit(event) }, prompt, h('div', { class: 'actions' }, send, interjectButton, stop));
  prompt.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  for (const candidate of examples) {
    exampleList.append(h('li', {}, h('button', { type: 'button', 'data-example': candidate.id, 'aria-pressed': 'false', onclick: () => pick(candidate) }, candidate.title)));
  }

  replaceChildren(
    root,
    h('header', { class: 'top' }, h('h1', {}, 'Ghostlight playground'), settingsForm(settings, (next) => {
      settings = next;
      saveSettings(next);
      agents.clear();
    })),
    h('main', { class: 'layout' },
      h('nav', { class: 'panel', 'aria-label': 'Examples', tabindex: -1 }, exampleList, exampleInfo),
      h('section', { class: 'panel chat', 'aria-label': 'Chat' }, transcript.element, form),
      h('aside', { class: 'panel inspector', 'aria-label': 'Inspector', tabindex: 0 }, inspector.element),
    ),
  );
  root.removeAttribute('aria-busy');
  pick(example);
}
