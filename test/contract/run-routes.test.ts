import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineAgent, defineTool, INTERJECTION_PREFIX, MemorySessionStore } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { defineRunDurableObject, durableRuns, RUN_EVICTED_MESSAGE } from 'ghostlight/cloudflare';
import type { RunDurableObjectInstance, RunDurableObjectStorage, RunLogLimits } from 'ghostlight/cloudflare';
import { createAgentApp } from 'ghostlight/http';
import { parseSse } from '../support/sse';
import { lastUserText, respondingModel, toolOutputs } from '../support/scripted-model';

type Event = { type: string; sequence: number; [key: string]: unknown };

/** A step the test opens by hand, so a run is deterministically mid-tool when the test acts on it. */
function gate() {
  let open!: () => void;
  let started!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const running = new Promise<void>((resolve) => (started = resolve));
  const tool = defineTool({
    name: 'slow_step',
    description: 'Waits until the test lets it finish.',
    input: v.strictObject({}),
    execute: async (_input, binding) => {
      started();
      await new Promise<void>((resolve, reject) => {
        if (binding.signal.aborted) return reject(binding.signal.reason);
        void opened.then(resolve);
        binding.signal.addEventListener('abort', () => reject(binding.signal.reason), { once: true });
      });
      return 'step done';
    },
  });
  return { tool, open, running };
}

/** The scripted agent: it calls slow_step, then reports; an interjection gets "Noted: <text>". */
function slowAgent(step: ReturnType<typeof gate>): Agent {
  const model = respondingModel((call) => {
    const text = lastUserText(call);
    if (text.startsWith(INTERJECTION_PREFIX)) return { text: `Noted: ${text.slice(INTERJECTION_PREFIX.length).trim()}` };
    if (toolOutputs(call).length > 0) return { text: 'All done.' };
    return { toolCalls: [{ name: 'slow_step', input: {} }] };
  });
  return defineAgent({ name: 'slow', model, tools: [step.tool] });
}

/** Durable Object storage in memory: sorted keys, values copied in and out as the real one does. */
class MemoryStorage implements RunDurableObjectStorage {
  readonly rows = new Map<string, unknown>();
  alarm: number | undefined;
  async get<T>(key: string): Promise<T | undefined> {
    return structuredClone(this.rows.get(key)) as T | undefined;
  }
  async put(entries: Record<string, unknown>): Promise<void> {
    for (const [key, value] of Object.entries(entries)) this.rows.set(key, structuredClone(value));
  }
  async list<T>(options: { prefix: string; start?: string; limit?: number; reverse?: boolean }): Promise<Map<string, T>> {
    let keys = [...this.rows.keys()].filter((key) => key.startsWith(options.prefix) && (options.start === undefined || key >= options.start)).sort();
    if (options.reverse) keys.reverse();
    if (options.limit !== undefined) keys = keys.slice(0, options.limit);
    return new Map(keys.map((key) => [key, structuredClone(this.rows.get(key)) as T]));
  }
  async deleteAll(): Promise<void> {
    this.rows.clear();
  }
  async setAlarm(time: number): Promise<void> {
    this.alarm = time;
  }
}

/** A Durable Object namespace in memory: one object per name; `evict()` drops the instances and keeps their storage (a restart). */
function memoryNamespace(agent: Agent, limits?: RunLogLimits) {
  const RunObject = defineRunDurableObject(() => ({ agents: [agent], ...(limits ? { limits } : {}) }));
  const storages = new Map<string, MemoryStorage>();
  const objects = new Map<string, RunDurableObjectInstance>();
  const object = (name: string) => {
    if (!storages.has(name)) storages.set(name, new MemoryStorage());
    if (!objects.has(name)) objects.set(name, new RunObject({ storage: storages.get(name)! }, {}));
    return objects.get(name)!;
  };
  const namespace = {
    idFromName: (name: string) => name,
    get: (id: never) => ({ fetch: (input: Request | string, init?: RequestInit) => object(id as string).fetch(new Request(input, init)) }),
  };
  return { namespace, storages, objects, evict: () => objects.clear() };
}

const auth = (request: Request) => ({ actorId: request.headers.get('x-actor') ?? 'ada' });
const limits = { maxBodyBytes: 4_096 };

function apps() {
  return [
    ['in the isolate', (agent: Agent) => ({ app: createAgentApp({ agents: [agent], auth, limits }) })],
    [
      'in Durable Objects (durableRuns)',
      (agent: Agent) => {
        const objects = memoryNamespace(agent);
        return { app: createAgentApp({ agents: [agent], auth, limits, runs: durableRuns(objects.namespace) }), objects };
      },
    ],
  ] as const;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://app.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://app.test${path}`, { headers });
const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: object }) });
/** The events of an SSE response up to the first of `type`; then the reader leaves. */
async function readUntil(response: Response, type: string): Promise<Event[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += chunk.value;
    const complete = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).map((frame) => frame.data as Event);
    const index = complete.findIndex((event) => event.type === type);
    if (index >= 0) {
      await reader.cancel();
      return complete.slice(0, index + 1);
    }
  }
  throw new Error(`The stream ended before a ${type} event`);
}
const eventsOf = async (response: Response) => parseSse(await response.text()).map((frame) => frame.data as Event);

describe.each(apps())('interject, cancel and detach over HTTP, runs %s', (_, make) => {
  it('reaches the live run from other requests: an interjection answered at the next boundary, then the rest of the log from Last-Event-ID', async () => {
    const step = gate();
    const { app } = make(slowAgent(step));
    const started = await app.fetch(post('/agents/slow/runs', { input: 'Work on it', detach: true }));
    expect(started.status).toBe(202);
    const { runId, state } = (await started.json()) as { runId: string; state: string };
    expect(state).toBe('running');
    expect(started.headers.get('x-ghostlight-run-id')).toBe(runId);
    await step.running;
    const reply = app.fetch(post(`/agents/slow/runs/${runId}/interject`, { message: 'Only the EU policy.', interjectionId: 'eu-only', batchKey: 'scope' }));
    // Nothing reports a queued interjection: let the request reach the run (a few event-loop turns) before the step ends.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    step.open();
    const answered = await reply;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ text: 'Noted: Only the EU policy.', toolCalls: false, interjectionIds: ['eu-only'], batchKey: 'scope' });
    const all = await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)));
    expect(all.at(-1)).toMatchObject({ type: 'run-stop', outcome: 'completed', response: 'Noted: Only the EU policy.' });
    expect(all.map((event) => event.sequence)).toEqual(all.map((_, index) => index));
    expect(await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`, { 'last-event-id': '5' })))).toEqual(all.slice(6));
    expect(await errorOf(await app.fetch(post(`/agents/slow/runs/${runId}/interject`, { message: 'Hello?' })))).toEqual({
      status: 409,
      error: { code: 'not_running', message: 'Agent is not currently running' },
    });
  });

  it('queues an interjection without waiting for its reply (wait: false), which the run events then carry', async () => {
    const step = gate();
    const { app } = make(slowAgent(step));
    const { runId } = (await (await app.fetch(post('/agents/slow/runs', { input: 'Work on it', detach: true }))).json()) as { runId: string };
    await step.running;
    const queued = await app.fetch(post(`/agents/slow/runs/${runId}/interject`, { message: 'FYI: EU only.', interjectionId: 'fyi', wait: false }));
    expect({ status: queued.status, body: await queued.json() }).toEqual({ status: 202, body: { interjectionId: 'fyi', state: 'queued' } });
    step.open();
    const events = await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)));
    expect(events.filter((event) => event.type === 'agent-interjection-delivered')).toMatchObject([{ interjectionIds: ['fyi'] }]);
    expect(events.at(-1)).toMatchObject({ type: 'run-stop', response: 'Noted: FYI: EU only.' });
  });

  it('cancels a live run with a reason, and answers finished after', async () => {
    const step = gate();
    const { app } = make(slowAgent(step));
    const response = await app.fetch(post('/agents/slow/runs', { input: 'Work on it' }, { accept: 'text/event-stream' }));
    const runId = response.headers.get('x-ghostlight-run-id')!;
    const events = eventsOf(response);
    await step.running;
    const cancelled = await app.fetch(post(`/agents/slow/runs/${runId}/cancel`, { reason: 'Changed my mind' }));
    expect({ status: cancelled.status, body: await cancelled.json() }).toEqual({ status: 202, body: { runId, state: 'cancelling' } });
    const terminal = { type: 'run-cancel', outcome: 'cancelled', response: '', error: { name: 'CancelledError', message: 'The run was cancelled: Changed my mind' } };
    expect((await events).at(-1)).toMatchObject(terminal);
    expect((await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)))).at(-1)).toMatchObject(terminal);
    const again = await app.fetch(new Request(`http://app.test/agents/slow/runs/${runId}/cancel`, { method: 'POST' }));
    expect({ status: again.status, body: await again.json() }).toEqual({ status: 200, body: { runId, state: 'finished' } });
  });

  it('puts a client reason behind the fixed prefix, says "The run was cancelled" without one, and refuses unsafe reasons', async () => {
    const cancelWith = async (body: unknown) => {
      const step = gate();
      const { app } = make(slowAgent(step));
      const response = await app.fetch(post('/agents/slow/runs', { input: 'Work on it' }, { accept: 'text/event-stream' }));
      const runId = response.headers.get('x-ghostlight-run-id')!;
      const events = eventsOf(response);
      await step.running;
      const refused = [`a\nb`, 'Stop\u202eno', 'tab\there', '\u2028'];
      for (const reason of refused) {
        expect(await errorOf(await app.fetch(post(`/agents/slow/runs/${runId}/cancel`, { reason })))).toMatchObject({
          status: 400,
          error: { code: 'invalid_reason', message: 'reason must be a non-empty string of at most 500 characters, on one line, without control characters' },
        });
      }
      const request =
        body === undefined ? new Request(`http://app.test/agents/slow/runs/${runId}/cancel`, { method: 'POST' }) : post(`/agents/slow/runs/${runId}/cancel`, body);
      expect((await app.fetch(request)).status).toBe(202);
      return (await events).at(-1)?.error;
    };
    // A reason that reads like one of Ghostlight's own messages still carries the prefix.
    expect(await cancelWith({ reason: 'The client went away' })).toEqual({ name: 'CancelledError', message: 'The run was cancelled: The client went away' });
    expect(await cancelWith({ reason: 'é'.repeat(500) })).toEqual({ name: 'CancelledError', message: `The run was cancelled: ${'é'.repeat(500)}` });
    expect(await cancelWith({})).toEqual({ name: 'CancelledError', message: 'The run was cancelled' });
    expect(await cancelWith(undefined)).toEqual({ name: 'CancelledError', message: 'The run was cancelled' });
  });

  it('never lets another actor see, interject into or cancel a run, and checks ids and bodies', async () => {
    const step = gate();
    const { app } = make(slowAgent(step));
    const { runId } = (await (await app.fetch(post('/agents/slow/runs', { input: 'Work on it', detach: true }))).json()) as { runId: string };
    await step.running;
    const eve = { 'x-actor': 'eve' };
    const unknown = { code: 'unknown_run' };
    for (const request of [
      get(`/agents/slow/runs/${runId}/events`, eve),
      post(`/agents/slow/runs/${runId}/interject`, { message: 'Stop' }, eve),
      post(`/agents/slow/runs/${runId}/cancel`, {}, eve),
    ]) {
      expect(await errorOf(await app.fetch(request))).toMatchObject({ status: 404, error: unknown });
    }
    const refusals: Array<[Request, number, string]> = [
      [post('/agents/slow/runs/..%2Fother/cancel', {}), 400, 'invalid_run_id'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: 'x'.repeat(5_000) }), 413, 'body_too_large'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: '' }), 400, 'invalid_input'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: 'Hi', interjectionId: 'a b' }), 400, 'invalid_interjection'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: 'Hi', wait: 'no' }), 400, 'invalid_interjection'],
      [post(`/agents/slow/runs/${runId}/cancel`, { reason: 'x'.repeat(501) }), 400, 'invalid_reason'],
      [post('/agents/slow/runs', { input: 'Hi', detach: 1 }), 400, 'invalid_detach'],
    ];
    for (const [request, status, code] of refusals) expect(await errorOf(await app.fetch(request))).toMatchObject({ status, error: { code } });
    step.open();
    const events = await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)));
    expect(events.at(-1)).toMatchObject({ type: 'run-stop', response: 'All done.' });
  });
});

describe('durable runs: the stored log outlives the object', () => {
  it('serves a finished run from storage to a fresh object, and finishes a run its object lost mid-run as failed with the reason', async () => {
    const step = gate();
    const objects = memoryNamespace(slowAgent(step));
    const app = createAgentApp({ agents: [slowAgent(gate())], auth, runs: durableRuns(objects.namespace) });
    const { runId } = (await (await app.fetch(post('/agents/slow/runs', { input: 'Work on it', detach: true }))).json()) as { runId: string };
    await step.running;
    // A reader mid-run, in another request, leaves after the tool started; then the object is lost (evicted, restarted).
    const partial = await readUntil(await app.fetch(get(`/agents/slow/runs/${runId}/events`, { 'last-event-id': '0' })), 'tool-start');
    expect(partial[0]).toMatchObject({ sequence: 1 });
    objects.evict();
    const all = await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)));
    expect(all.slice(1, partial.length + 1)).toEqual(partial);
    expect(all.at(-1)).toEqual({
      type: 'run-error',
      outcome: 'failed',
      response: '',
      error: { name: 'RunEvictedError', message: RUN_EVICTED_MESSAGE },
      cleanupFailed: false,
      runId,
      sequence: all.length - 1,
      time: expect.any(Number),
    });
    expect(await errorOf(await app.fetch(post(`/agents/slow/runs/${runId}/interject`, { message: 'Still there?' })))).toMatchObject({ status: 409, error: { code: 'not_running' } });
    // The lost instance's run never resumes (here it stays parked in the gated step, as a dead isolate would).
  });

  it('answers JSON runs with the summary, and a fresh object reads the same log from storage', async () => {
    const step = gate();
    step.open();
    const objects = memoryNamespace(slowAgent(step));
    const app = createAgentApp({ agents: [slowAgent(gate())], auth, runs: durableRuns(objects.namespace) });
    const response = await app.fetch(post('/agents/slow/runs', { input: 'Work on it' }));
    const summary = (await response.json()) as { runId: string; outcome: string; response: string; steps: unknown[] };
    expect(summary).toMatchObject({ outcome: 'completed', response: 'All done.' });
    expect(summary.steps).toHaveLength(2);
    const before = await eventsOf(await app.fetch(get(`/agents/slow/runs/${summary.runId}/events`)));
    objects.evict();
    expect(await eventsOf(await app.fetch(get(`/agents/slow/runs/${summary.runId}/events`)))).toEqual(before);
    expect(await eventsOf(await app.fetch(get(`/agents/slow/runs/${summary.runId}/events?from=3`)))).toEqual(before.slice(3));
  });

  it('bounds the stored log: at the limit the run is cancelled, and its terminal event is still stored', async () => {
    const step = gate();
    const objects = memoryNamespace(slowAgent(step), { maxEvents: 6 });
    const app = createAgentApp({ agents: [slowAgent(gate())], auth, runs: durableRuns(objects.namespace) });
    const response = await app.fetch(post('/agents/slow/runs', { input: 'Work on it' }, { accept: 'text/event-stream' }));
    const events = await eventsOf(response);
    expect(events).toHaveLength(6);
    expect(events.at(-1)).toMatchObject({ type: 'run-cancel', outcome: 'cancelled', error: { name: 'CancelledError', message: "The run's event log reached its limit" } });
    objects.evict();
    expect(await eventsOf(await app.fetch(get(`/agents/slow/runs/${response.headers.get('x-ghostlight-run-id')}/events`)))).toEqual(events);
  });

  it('stores events longer than one row in several rows and reads them back whole', async () => {
    const long = 'x'.repeat(70_000);
    const agent = defineAgent({ name: 'slow', model: respondingModel(() => ({ text: long })) });
    const objects = memoryNamespace(agent);
    const app = createAgentApp({ agents: [agent], auth, runs: durableRuns(objects.namespace), limits: { maxInputChars: 100 } });
    const { runId } = (await (await app.fetch(post('/agents/slow/runs', { input: 'Long answer' }))).json()) as { runId: string };
    objects.evict();
    const events = await eventsOf(await app.fetch(get(`/agents/slow/runs/${runId}/events`)));
    expect(events.at(-1)).toMatchObject({ type: 'run-stop', response: long });
    const rows = [...objects.storages.values()][0]!.rows;
    expect(Math.max(...[...rows.values()].filter((value) => typeof value === 'string').map((value) => (value as string).length))).toBeLessThanOrEqual(32_000);
  });

  it('refuses a run host that is not one', () => {
    const agent = defineAgent({ name: 'slow', model: respondingModel(() => ({ text: 'hi' })) });
    expect(() => createAgentApp({ agents: [agent], auth, runs: {} as never })).toThrow('createAgentApp runs must be a run host, e.g. durableRuns(env.RUNS) from ghostlight/cloudflare');
    expect(() => durableRuns(undefined as never)).toThrow('durableRuns needs a Durable Object namespace binding (env.RUNS) whose class is defineRunDurableObject(...)');
  });
});
