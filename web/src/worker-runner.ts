import type { GhostlightEvent, RecordedOperation } from 'ghostlight';
import { toViewEvent } from './local-runner';
import { subagentView } from './subagent-view';
import type { Runner, ViewEvent } from './view-event';

interface AgUiMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool';
  content?: string;
  toolCalls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  toolCallId?: string;
}

/**
 * Runs agents on the Worker through its AG-UI route (`POST /agents/:name/ag-ui`)
 * and turns the AG-UI event stream back into what the playground shows.
 * The conversation is a thread: the Worker's session keeps it. Session ids
 * are issued by the Worker (`POST /agents/:name/sessions`), one per agent,
 * since each agent has its own sessions.
 */
export class WorkerRunner implements Runner {
  readonly label = 'the Worker (AG-UI)';
  readonly #base: string;
  #threads = new Map<string, string>();
  #messages: AgUiMessage[] = [];
  /** The run in progress: its agent and Ghostlight run id (`x-ghostlight-run-id`), for interjections. */
  #current: { agentId: string; runId: string } | undefined;

  readonly #route: (agentId: string) => 'ag-ui' | 'runs';

  /** `route` picks, per agent, AG-UI (default) or the Worker's own `/runs` event stream (a durable run in a Durable Object). */
  constructor(base = '', route: (agentId: string) => 'ag-ui' | 'runs' = () => 'ag-ui') {
    this.#base = base;
    this.#route = route;
  }

  async *run(agentId: string, input: string, signal: AbortSignal): AsyncIterable<ViewEvent> {
    const runId = crypto.randomUUID();
    this.#messages.push({ id: crypto.randomUUID(), role: 'user', content: input });
    let threadId = this.#threads.get(agentId);
    if (threadId === undefined) {
      const created = await fetch(`${this.#base}/agents/${encodeURIComponent(agentId)}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal });
      if (!created.ok) {
        yield { type: 'end', outcome: 'failed', response: '', error: `The Worker answered ${created.status} when asked for a session` };
        return;
      }
      threadId = ((await created.json()) as { sessionId: string }).sessionId;
      this.#threads.set(agentId, threadId);
    }
    if (this.#route(agentId) === 'runs') {
      yield* this.#runDurable(agentId, threadId, input, signal);
      return;
    }
    // The tab starts the trace; the Worker continues it and keeps its operations for the Trace tab.
    const traceId = randomHex(16);
    let tracedId: string | undefined;
    const response = await fetch(`${this.#base}/agents/${encodeURIComponent(agentId)}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', traceparent: `00-${traceId}-${randomHex(8)}-01` },
      body: JSON.stringify({ threadId, runId, messages: this.#messages.slice(-1), tools: [], context: [], state: {}, forwardedProps: {} }),
      signal,
    });
    if (!response.ok || !response.body) {
      const reason = await response.text().catch(() => '');
      yield { type: 'end', outcome: 'failed', response: '', error: `The Worker answered ${response.status}: ${reason.slice(0, 300)}` };
      return;
    }
    const toolStarted = new Map<string, { name: string; args: string; started: number }>();
    let text = '';
    const ghostlightRunId = response.headers.get('x-ghostlight-run-id');
    const current = ghostlightRunId ? { agentId, runId: ghostlightRunId } : undefined;
    this.#current = current;
    try {
      for await (const event of readSse(response.body)) {
        const type = event.type as string;
        switch (type) {
          case 'RUN_STARTED':
            yield { type: 'run-start', runId: String(event.runId) };
            break;
          case 'TEXT_MESSAGE_CONTENT':
            text += String(event.delta);
            yield { type: 'text', messageId: String(event.messageId), delta: String(event.delta) };
            break;
          case 'REASONING_MESSAGE_CONTENT':
            yield { type: 'reasoning', messageId: String(event.messageId), delta: String(event.delta) };
            break;
          case 'TOOL_CALL_START':
            toolStarted.set(String(event.toolCallId), { name: String(event.toolCallName), args: '', started: performance.now() });
            break;
          case 'TOOL_CALL_ARGS': {
            const call = toolStarted.get(String(event.toolCallId));
            if (call) call.args += String(event.delta);
            break;
          }
          case 'TOOL_CALL_END': {
            const call = toolStarted.get(String(event.toolCallId));
            if (call) yield { type: 'tool-start', id: String(event.toolCallId), name: call.name, input: parseJson(call.args), caller: 'model' };
            break;
          }
          case 'TOOL_CALL_RESULT': {
            const call = toolStarted.get(String(event.toolCallId));
            yield {
              type: 'tool-stop',
              id: String(event.toolCallId),
              status: (event.metadata as { status?: string } | undefined)?.status === 'error' ? 'error' : 'success',
              content: String(event.content ?? ''),
              durationMs: call ? performance.now() - call.started : 0,
            };
            break;
          }
          case 'CUSTOM': {
            if (event.name === 'ghostlight.trace_context') tracedId = String((event.value as { traceId?: unknown } | undefined)?.traceId ?? '');
            const view = fromCustom(String(event.name), (event.value ?? {}) as Record<string, unknown>, toolStarted);
            yield view ?? { type: 'custom', name: String(event.name), value: event.value };
            break;
          }
          case 'RUN_FINISHED': {
            const result = (event.result ?? {}) as { response?: string; output?: unknown };
            this.#messages.push({ id: crypto.randomUUID(), role: 'assistant', content: result.response ?? text });
            yield { type: 'end', outcome: 'completed', response: result.response ?? text, output: result.output };
            yield await this.#trace(tracedId);
            return;
          }
          case 'RUN_ERROR':
            yield { type: 'end', outcome: 'failed', response: '', error: String(event.message) };
            yield await this.#trace(tracedId);
            return;
          default:
            break;
        }
      }
    } finally {
      if (this.#current === current) this.#current = undefined;
    }
  }

  /**
   * `POST /agents/:name/runs` with `Accept: text/event-stream`: Ghostlight's own events, from the run's Durable
   * Object when the Worker hosts runs there; the session (the thread) keeps the conversation.
   */
  async *#runDurable(agentId: string, sessionId: string, input: string, signal: AbortSignal): AsyncIterable<ViewEvent> {
    const response = await fetch(`${this.#base}/agents/${encodeURIComponent(agentId)}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ input, sessionId }),
      signal,
    });
    if (!response.ok || !response.body) {
      const reason = await response.text().catch(() => '');
      yield { type: 'end', outcome: 'failed', response: '', error: `The Worker answered ${response.status}: ${reason.slice(0, 300)}` };
      return;
    }
    const runId = response.headers.get('x-ghostlight-run-id');
    const current = runId ? { agentId, runId } : undefined;
    this.#current = current;
    try {
      for await (const event of readSse(response.body)) {
        const view = toViewEvent(event as unknown as GhostlightEvent);
        if (view) yield view;
        if (view?.type === 'end') return;
      }
    } finally {
      if (this.#current === current) this.#current = undefined;
    }
  }

  /** Interjects into the Worker's run in progress: `POST /agents/:name/runs/:runId/interject` (SPEC A18). */
  async interject(message: string): Promise<{ text: string }> {
    const current = this.#current;
    if (!current) throw new Error('No run is in progress');
    const response = await fetch(`${this.#base}/agents/${encodeURIComponent(current.agentId)}/runs/${encodeURIComponent(current.runId)}/interject`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    const body = (await response.json().catch(() => ({}))) as { text?: string; error?: { message?: string } };
    if (!response.ok) throw new Error(body.error?.message ?? `The Worker answered ${response.status}`);
    return { text: body.text ?? '' };
  }

  reset(): void {
    this.#threads.clear();
    this.#messages = [];
  }

  /** The Worker's recorded operations of one trace (none when the run had no trace context). */
  async #trace(traceId: string | undefined): Promise<ViewEvent> {
    if (!traceId) return { type: 'trace', operations: [], where: this.label };
    const response = await fetch(`${this.#base}/api/traces/${traceId}`).catch(() => undefined);
    const body = response?.ok ? ((await response.json()) as { operations: RecordedOperation[] }) : { operations: [] };
    return { type: 'trace', operations: body.operations, where: this.label };
  }
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Ghostlight's own custom AG-UI events: code-mode programs and the calls they make. */
function fromCustom(name: string, value: Record<string, unknown>, started: Map<string, { name: string; args: string; started: number }>): ViewEvent | undefined {
  switch (name) {
    case 'ghostlight.program.start':
      return { type: 'program-start', id: String(value.programId), source: String(value.source) };
    case 'ghostlight.program.observe':
      return { type: 'program-observe', id: String(value.programId), via: String(value.via), status: String(value.status), output: String(value.output ?? ''), value: value.value, ...(value.error ? { error: String(value.error) } : {}) };
    case 'ghostlight.subagent':
      return subagentView(value);
    case 'ghostlight.tool_start':
      started.set(String(value.toolCallId), { name: String(value.toolName), args: '', started: performance.now() });
      return { type: 'tool-start', id: String(value.toolCallId), name: String(value.toolName), input: value.input, caller: String(value.caller), ...(value.parentToolCallId ? { parentId: String(value.parentToolCallId) } : {}) };
    case 'ghostlight.tool_result': {
      const call = started.get(String(value.toolCallId));
      return { type: 'tool-stop', id: String(value.toolCallId), status: value.status === 'error' ? 'error' : 'success', content: String(value.content ?? ''), durationMs: call ? performance.now() - call.started : 0 };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return text;
  }
}

/** Reads `data:` payloads of a server-sent event stream as JSON objects. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncIterable<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data && data !== '[DONE]') yield JSON.parse(data) as Record<string, unknown>;
        boundary = buffer.indexOf('\n\n');
      }
    }
  } finally {
    reader.releaseLock();
  }
}
