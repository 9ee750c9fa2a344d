import type { ModelMessage } from 'ai';
import type { Askable, AskOptions, GhostlightEvent, RunStream } from 'ghostlight';
import { assemblyView } from './assembly-view';
import { subagentView } from './subagent-view';
import type { ApprovalView, ArtifactView, Runner, ViewEvent } from './view-event';

/**
 * Runs agents in this tab: the Ghostlight core, its tools and its sandbox all
 * execute in the browser. Keeps the conversation per agent between messages.
 */
export class LocalRunner implements Runner {
  readonly label = 'this tab';
  readonly #agents: (id: string) => Promise<Askable>;
  readonly #options: (id: string) => Promise<Partial<AskOptions>>;
  readonly #history = new Map<string, ModelMessage[]>();
  readonly #sessionId = crypto.randomUUID();
  #current: RunStream | undefined;

  constructor(agents: (id: string) => Promise<Askable>, options: (id: string) => Promise<Partial<AskOptions>> = async () => ({})) {
    this.#agents = agents;
    this.#options = options;
  }

  run(agentId: string, input: string, signal: AbortSignal): AsyncIterable<ViewEvent> {
    return this.#drive(agentId, input, signal);
  }

  /** Continues the agent's run waiting for approvals in its stored session, with the user's answers. */
  resume(agentId: string, answers: Array<{ approvalId: string; approved: boolean; reason?: string }>, signal: AbortSignal): AsyncIterable<ViewEvent> {
    return this.#drive(agentId, { approvals: answers }, signal);
  }

  /** What the agent's stored session waits for (e.g. after a reload). */
  async pending(agentId: string): Promise<ApprovalView[]> {
    const extra = await this.#options(agentId);
    if (!extra.sessions || !extra.sessionId) return [];
    const { pendingApprovalsIn } = await import('ghostlight');
    return pendingApprovalsIn(await extra.sessions.load(extra.sessionId, { actorId: ACTOR }));
  }

  async *#drive(agentId: string, input: string | { approvals: Array<{ approvalId: string; approved: boolean; reason?: string }> }, signal: AbortSignal): AsyncIterable<ViewEvent> {
    const agent = await this.#agents(agentId);
    const extra = await this.#options(agentId);
    // The Trace tab: this run's operations, recorded from the instrumentation bus.
    const { Instrumentation, OperationRecorder } = await import('ghostlight');
    const recorder = new OperationRecorder();
    const instrumentation = new Instrumentation({ subscribers: [recorder] });
    // Approval answers (`{ approvals }`) continue an agent's waiting run; an example with a session store names its session.
    const stream = agent.stream(input as string, { ...extra, signal, history: this.#history.get(agentId) ?? [], sessionId: extra.sessionId ?? this.#sessionId, actorId: ACTOR, instrumentation });
    this.#current = stream;
    try {
      for await (const event of stream) {
        const view = toViewEvent(event);
        if (view) yield view;
      }
    } finally {
      this.#current = undefined;
    }
    const run = await stream.run;
    for (const step of run.steps) {
      for (const result of step.toolResults) {
        const items = result.artifacts.flatMap((artifact): ArtifactView[] =>
          artifact.kind === 'inline' ? [{ name: artifact.name ?? 'artifact', mediaType: artifact.mediaType, data: artifact.data, ...(artifact.reference ? { reference: artifact.reference } : {}) }] : [],
        );
        if (items.length > 0) yield { type: 'artifacts', id: result.toolCallId, items };
      }
    }
    yield { type: 'trace', operations: recorder.operations(), where: this.label };
    if (run.outcome === 'completed') this.#history.set(agentId, [...run.messages]);
  }

  reset(): void {
    this.#history.clear();
  }

  /** Interjects into the run in progress in this tab. */
  async interject(text: string): Promise<{ text: string }> {
    const stream = this.#current;
    if (!stream) throw new Error('No run is in progress');
    const { interject } = await import('ghostlight');
    return interject(stream, text);
  }
}

/** The one actor of the playground's tab. */
const ACTOR = 'playground-user';

/** What the playground shows for one Ghostlight event (also for the Worker's `/runs` event stream). */
export function toViewEvent(event: GhostlightEvent): ViewEvent | undefined {
  switch (event.type) {
    case 'run-start':
      return { type: 'run-start', runId: event.runId };
    case 'model-start':
      return { type: 'turn-start', turn: event.turn };
    case 'text-delta':
      return { type: 'text', messageId: event.messageId, delta: event.text };
    case 'reasoning-delta':
      return { type: 'reasoning', messageId: event.messageId, delta: event.text };
    case 'tool-start':
      return { type: 'tool-start', id: event.toolCallId, name: event.toolName, input: event.input, caller: event.caller, ...(event.parentToolCallId ? { parentId: event.parentToolCallId } : {}) };
    case 'tool-stop':
      return { type: 'tool-stop', id: event.toolCallId, status: event.status, content: event.content, value: event.value, durationMs: event.durationMs };
    case 'usage':
      return { type: 'usage', totalTokens: event.total.totalTokens };
    case 'subagent':
      return subagentView(event as unknown as Record<string, unknown>);
    case 'assembly-step-start':
    case 'assembly-step-stop':
    case 'assembly-step-error':
    case 'assembly-step-retry':
    case 'assembly-transition':
    case 'assembly-fork':
    case 'assembly-join':
    case 'assembly-handoff-loop':
      return assemblyView(event);
    case 'program-start':
      return { type: 'program-start', id: event.programId, source: event.source };
    case 'program-observe':
      return { type: 'program-observe', id: event.programId, via: event.via, status: event.status, output: event.output, value: event.value, ...(event.error ? { error: event.error } : {}) };
    case 'run-stop':
      return { type: 'end', outcome: 'completed', response: event.response, output: event.output };
    case 'run-waiting':
      return { type: 'end', outcome: 'waiting', response: event.response, approvals: event.approvals.map(({ approvalId, toolCallId, toolName, input }) => ({ approvalId, toolCallId, toolName, input })) };
    case 'run-partial':
    case 'run-cancel':
    case 'run-error':
      return { type: 'end', outcome: event.outcome, response: event.response, error: event.error.message };
    default:
      return undefined;
  }
}

