// Why this file is a little over 400 lines (STYLE.md): it is the route table of the HTTP app, where each route is a few
// lines that call into the request readers (run-request, client-messages, approval-requests, run-control, start-run).
import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import type { Askable } from '../agent/askable.ts';
import { assertKnownKeys } from '../agent/option-keys.ts';
import { AgUiEncoder } from '../ag-ui/ag-ui-encoder.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { GhostlightEvent } from '../events/events.ts';
import type { SessionStore } from '../session/session-store.ts';
import { UiMessageEncoder } from '../ui-stream/ui-message-encoder.ts';
import { traceContextFrom } from '../instrumentation/trace-context.ts';
import { randomHex } from '../util/id.ts';
import type { AgentAppOptions, Authenticate, AuthResult } from './agent-app-options.ts';
import { parseAgUiRequest } from './ag-ui-request.ts';
import { isCorsPolicy } from './cors-policy.ts';
import { eventStream } from './event-stream.ts';
import type { SseFrame } from './event-stream.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { readJsonBody } from './read-json-body.ts';
import { RunRegistry } from './run-registry.ts';
import { checkRunId, interjectLocal, parseCancelReason, parseInterjectRequest } from './run-control.ts';
import type { RunHost, RunHostRef } from './run-host.ts';
import { checkSessionId, parseRunRequest } from './run-request.ts';
import type { RequestLimits, RunRequest } from './run-request.ts';
import { scopedSessionStore } from './scoped-session-store.ts';
import { readSession, startRun, toHttpError, unknownSession } from './start-run.ts';
import type { StartedRun } from './start-run.ts';
import { parseUiChatRequest } from './ui-chat-request.ts';
import { readApprovalAnswers, sessionApprovals } from './approval-requests.ts';

type AppEnv = { Variables: { auth: AuthResult; agent: Askable } };

const DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  maxMessages: 500,
  maxInputChars: 100_000,
  maxJsonDepth: 64,
  minSessionIdLength: 16,
  maxRunsPerActor: 100,
  maxRuns: 1_000,
};
/** The keys of the options (a key added to `AgentAppOptions` must be listed here: the type says so). */
const OPTION_KEYS = Object.keys({
  agents: 1, auth: 1, sessions: 1, sessionIds: 1, sessionScope: 1, limits: 1, cors: 1, runTimeoutMs: 1, heartbeatMs: 1, onError: 1, keepRunsMs: 1,
  instrumentation: 1, continueTraces: 1, runs: 1,
} satisfies Record<keyof AgentAppOptions, 1>);
const SAFE_START_FAILURE = 'The run could not start.';
/** The deadline of a detached run when the app sets no `runTimeoutMs`: a run nobody listens to still ends. */
const DETACHED_RUN_MS = 15 * 60_000;
const UNKNOWN_LOCAL_RUN = 'No such run here: runs stay readable for a short time after they end, in the instance that ran them';

/**
 * The HTTP surface of a set of agents: a Hono app that is a plain `fetch`
 * handler (Workers, Node, Deno, Bun, a Service Worker).
 *
 * - `GET /agents`: the agents' names.
 * - `POST /agents/:name/sessions`: a new session id, issued by the server.
 * - `POST /agents/:name/runs`: `{"input", "sessionId"?, "history"?}` → the Run as JSON, or with
 *   `Accept: text/event-stream` Ghostlight's own events as SSE (`id:` is the sequence number).
 *   `"detach": true` keeps the run working after the client goes away (JSON: `202 {runId, state}` at once).
 * - `GET /agents/:name/runs/:runId/events?from=N` (or `Last-Event-ID`): resumes that stream.
 * - `POST /agents/:name/runs/:runId/interject`: `{"message", "interjectionId"?, "batchKey"?, "wait"?}` → the model's reply
 *   (with `"wait": false`, 202 `{interjectionId, state: "queued"}` at once).
 * - `POST /agents/:name/runs/:runId/cancel`: `{"reason"?}` → `{runId, state}`; the run ends `run-cancel` "The run was cancelled: <reason>".
 * - `GET /agents/:name/sessions/:sessionId`: the stored conversation (to restore a chat view).
 * - `POST /agents/:name/ag-ui`: AG-UI `RunAgentInput` → AG-UI events over SSE.
 * - `POST /agents/:name/chat`: AI SDK UI message stream (what `useChat` speaks).
 * - `GET /agents/:name/sessions/:sessionId/approvals`: what the session's waiting run asks approval for;
 *   `POST` the same path with `{"approvals": [{ approvalId, approved, reason? }]}` continues it (JSON or SSE, as `/runs`).
 *
 * `auth` turns each request into `{ actorId, context }`; clients and models
 * never choose them. Errors are JSON `{"error": {"code", "message"}}`; no
 * stack trace or provider error reaches a client. Everything a client sends
 * is untrusted: see docs/security.md for the trust model and the limits.
 *
 * @example
 * const app = createAgentApp({
 *   agents: [supportAgent],
 *   auth: async (request) => {
 *     const user = await verify(request.headers.get('authorization'));
 *     return user ? { actorId: user.id, context: { accountId: user.accountId } } : null;
 *   },
 *   sessions: new MemorySessionStore(),
 * });
 * export default app; // a Worker, or serve(app) in Node
 */
export function createAgentApp(options: AgentAppOptions): Hono<AppEnv> {
  const settingsOf = checkOptions(options);
  const { agents, limits, authenticate: auth, sessionMode, heartbeatMs, onError } = settingsOf;
  const stores = new Map<string, SessionStore>();
  if (options.sessions) {
    for (const agent of agents.values()) {
      stores.set(agent.name, options.sessionScope === 'app' ? options.sessions : scopedSessionStore(options.sessions, agent.name));
    }
  }
  const traceOf = (request: Request) => (options.continueTraces === false ? undefined : traceContextFrom(request.headers));
  const registry = new RunRegistry(options.keepRunsMs ?? 60_000, { maxRuns: limits.maxRuns, maxRunsPerActor: limits.maxRunsPerActor });
  const app = new Hono<AppEnv>();

  if (options.cors) app.use('*', options.cors.middleware);
  app.onError((error, context) => {
    if (HttpError.isInstance(error)) return errorResponse(error.status, error.code, error.message);
    onError(error, context.req.raw);
    return errorResponse(500, 'internal_error', 'Internal server error');
  });
  app.notFound((context) => errorResponse(404, 'not_found', `No route for ${context.req.method} ${new URL(context.req.url).pathname.slice(0, 200)}`));

  const authenticate: MiddlewareHandler<AppEnv> = async (context, next) => {
    const result = await auth(context.req.raw);
    if (!result || typeof result.actorId !== 'string' || result.actorId.length === 0) {
      return errorResponse(401, 'unauthorized', 'Authentication required', { 'www-authenticate': 'Bearer' });
    }
    context.set('auth', result);
    const name = /\/agents\/([^/]+)/.exec(new URL(context.req.url).pathname)?.[1];
    if (name !== undefined) {
      const decoded = safeDecode(name);
      const agent = agents.get(decoded);
      if (!agent) return errorResponse(404, 'unknown_agent', `No agent named ${JSON.stringify(decoded.slice(0, 64))}`);
      context.set('agent', agent);
    }
    await next();
  };
  app.use('/agents', authenticate);
  app.use('/agents/*', authenticate);

  /**
   * The agent's session store, when a request names a session this actor may
   * use. With server-issued ids, an id that was not issued to this actor (or
   * not at all) is a 404 on `/runs`, where naming a session is a choice; on
   * AG-UI and chat, whose protocols always carry a thread id, the run goes on
   * without a stored session (the client holds the conversation).
   */
  async function sessionFor(agent: Askable, actorId: string, sessionId: string | undefined, required: boolean): Promise<SessionStore | undefined> {
    const store = stores.get(agent.name);
    if (!store || sessionId === undefined) return undefined;
    if (sessionMode === 'client' && sessionId.length < limits.minSessionIdLength) {
      throw new HttpError(400, 'invalid_session_id', `Session ids chosen by clients must have at least ${limits.minSessionIdLength} characters`);
    }
    // Another actor's id and an id never issued get the same answer.
    const { snapshot, foreign } = await readSession(store, sessionId, actorId);
    if (foreign || (sessionMode === 'server' && snapshot === undefined)) {
      if (required) throw unknownSession();
      return undefined;
    }
    return store;
  }

  async function start(context: Context<AppEnv>, request: RunRequest, graceMs: number, sessionRequired = false, detach = false): Promise<StartedRun> {
    const { agent, auth: caller } = context.var;
    const sessions = await sessionFor(agent, caller.actorId, request.sessionId, sessionRequired);
    const runTimeoutMs = options.runTimeoutMs ?? (detach ? DETACHED_RUN_MS : undefined);
    const settings = { sessions, runTimeoutMs, instrumentation: options.instrumentation, keepsSessions: stores.has(agent.name) };
    const signal = detach ? new AbortController().signal : context.req.raw.signal;
    const started = await startRun(agent, request, caller, settings, signal, graceMs, traceOf(context.req.raw));
    registry.add(started.stream, agent.name, caller.actorId, started.cancel);
    return started;
  }

  const host: RunHost | undefined = options.runs;
  const refOf = (context: Context<AppEnv>): RunHostRef => ({
    runId: checkRunId(context.req.param('runId') ?? ''),
    agent: context.var.agent.name,
    actorId: context.var.auth.actorId,
  });

  /** `POST /runs` on a run host: the app checks the request and the session, the host runs it. */
  async function startHosted(context: Context<AppEnv>, host: RunHost, body: Record<string, unknown>, request: RunRequest, wantsEvents: boolean, detach: boolean): Promise<Response> {
    const { agent, auth: caller } = context.var;
    const stored = (await sessionFor(agent, caller.actorId, request.sessionId, true)) !== undefined;
    const ref: RunHostRef = { runId: crypto.randomUUID(), agent: agent.name, actorId: caller.actorId };
    const deadlineAt = Date.now() + (options.runTimeoutMs ?? DETACHED_RUN_MS);
    const client = context.req.raw.signal;
    const signal = detach ? new AbortController().signal : client;
    const hosted = { ...ref, body: { input: body.input, history: body.history, sessionId: request.sessionId }, limits, context: caller.context, stored, detach, deadlineAt, traceContext: traceOf(context.req.raw) };
    const gone = () => void host.cancel(ref, 'The client went away').catch(() => undefined);
    const headers = { 'x-ghostlight-run-id': ref.runId, ...(request.sessionId !== undefined && stored ? { 'x-ghostlight-session-id': request.sessionId } : {}) };
    if (!wantsEvents && !detach) {
      client.addEventListener('abort', gone, { once: true });
      try {
        return context.json(await host.result(hosted, signal), 200, headers);
      } finally {
        client.removeEventListener('abort', gone);
      }
    }
    const events = await host.start(hosted, signal);
    if (wantsEvents) return eventStream(eventFrames(events, onErrorFor(context)), { onCancel: detach ? () => undefined : gone, heartbeatMs, headers });
    await events.return?.(undefined);
    return context.json({ runId: ref.runId, state: 'running' }, 202, headers);
  }

  const runHeaders = (started: StartedRun, request: RunRequest): Record<string, string> => ({
    'x-ghostlight-run-id': started.stream.runId,
    ...(request.sessionId !== undefined && started.stored ? { 'x-ghostlight-session-id': request.sessionId } : {}),
  });

  app.get('/agents', (context) => context.json({ agents: [...agents.keys()] }));

  app.post('/agents/:name/sessions', async (context) => {
    const store = stores.get(context.var.agent.name);
    if (!store) throw new HttpError(404, 'no_sessions', 'This app keeps no sessions');
    const sessionId = randomHex(16);
    try {
      await store.replace(sessionId, { actorId: context.var.auth.actorId, messages: [], state: {}, metadata: {} });
    } catch (error) {
      throw toHttpError(error);
    }
    return context.json({ sessionId }, 201, { 'x-ghostlight-session-id': sessionId });
  });

  app.post('/agents/:name/runs', async (context) => {
    const body = await readJsonBody(context.req.raw, limits);
    const request = parseRunRequest(body, limits);
    if (body.detach !== undefined && typeof body.detach !== 'boolean') throw new HttpError(400, 'invalid_detach', 'detach must be true or false');
    const detach = body.detach === true;
    const wantsEvents = (context.req.header('accept') ?? '').includes('text/event-stream');
    if (host) return startHosted(context, host, body, request, wantsEvents, detach);
    const started = await start(context, request, wantsEvents ? heartbeatMs : Number.POSITIVE_INFINITY, true, detach);
    const headers = runHeaders(started, request);
    if (wantsEvents) return eventStream(eventFrames(started.events, onErrorFor(context)), { onCancel: detach ? () => undefined : started.abort, heartbeatMs, headers });
    if (detach) {
      await started.events.return?.(undefined);
      return context.json({ runId: started.stream.runId, state: 'running' }, 202, headers);
    }
    const run = await started.stream.run;
    return context.json(run.toJSON(), 200, headers);
  });

  app.get('/agents/:name/runs/:runId/events', async (context) => {
    const { agent, auth: caller } = context.var;
    if (host && !registry.get(context.req.param('runId'), agent.name, caller.actorId)) {
      const ref = refOf(context);
      const reader = new AbortController();
      const events = await host.events(ref, resumePoint(context), reader.signal);
      return eventStream(eventFrames(events, onErrorFor(context)), { onCancel: () => reader.abort(), heartbeatMs, headers: { 'x-ghostlight-run-id': ref.runId } });
    }
    const stream = registry.get(context.req.param('runId'), agent.name, caller.actorId);
    if (!stream) throw new HttpError(404, 'unknown_run', UNKNOWN_LOCAL_RUN);
    const from = resumePoint(context);
    const reader = new AbortController();
    const events = stream.events(from, reader.signal)[Symbol.asyncIterator]();
    return eventStream(eventFrames(events, onErrorFor(context)), {
      onCancel: () => reader.abort(),
      heartbeatMs,
      headers: { 'x-ghostlight-run-id': stream.runId },
    });
  });

  app.post('/agents/:name/runs/:runId/interject', async (context) => {
    const ref = refOf(context);
    const request = parseInterjectRequest(await readJsonBody(context.req.raw, limits), limits);
    // AG-UI and chat runs stay in this isolate even with a run host.
    const stream = registry.get(ref.runId, ref.agent, ref.actorId);
    const signal = context.req.raw.signal;
    if (!stream && !host) throw new HttpError(404, 'unknown_run', UNKNOWN_LOCAL_RUN);
    const answer = stream ? await interjectLocal(stream, request, signal) : await host!.interject(ref, request, signal);
    return context.json(answer, 'state' in answer ? 202 : 200);
  });

  app.post('/agents/:name/runs/:runId/cancel', async (context) => {
    const ref = refOf(context);
    const hasBody = context.req.header('content-length') !== '0' && context.req.raw.body !== null && context.req.header('content-type') !== undefined;
    // "The run was cancelled: <reason>": the client's text only ever behind the fixed prefix.
    const message = parseCancelReason(hasBody ? await readJsonBody(context.req.raw, limits) : undefined);
    const state = registry.cancel(ref.runId, ref.agent, ref.actorId, message);
    if (!state && host) {
      const answer = await host.cancel(ref, message);
      return context.json(answer, answer.state === 'cancelling' ? 202 : 200);
    }
    if (!state) throw new HttpError(404, 'unknown_run', UNKNOWN_LOCAL_RUN);
    return context.json({ runId: ref.runId, state }, state === 'cancelling' ? 202 : 200);
  });

  app.get('/agents/:name/sessions/:sessionId', async (context) => {
    const store = stores.get(context.var.agent.name);
    if (!store) throw new HttpError(404, 'no_sessions', 'This app keeps no sessions');
    const sessionId = checkSessionId(context.req.param('sessionId'), 'sessionId')!;
    const { snapshot } = await readSession(store, sessionId, context.var.auth.actorId);
    if (!snapshot) throw unknownSession();
    return context.json({ sessionId, messages: snapshot.messages, state: snapshot.state });
  });

  app.get('/agents/:name/sessions/:sessionId/approvals', async (context) => {
    const store = stores.get(context.var.agent.name);
    if (!store) throw new HttpError(404, 'no_sessions', 'This app keeps no sessions');
    const sessionId = checkSessionId(context.req.param('sessionId'), 'sessionId')!;
    const { snapshot } = await readSession(store, sessionId, context.var.auth.actorId);
    if (!snapshot) throw unknownSession();
    return context.json({ sessionId, approvals: sessionApprovals(snapshot) });
  });

  app.post('/agents/:name/sessions/:sessionId/approvals', async (context) => {
    const body = await readJsonBody(context.req.raw, limits);
    const sessionId = checkSessionId(context.req.param('sessionId'), 'sessionId')!;
    const request: RunRequest = { input: readApprovalAnswers(body.approvals, 'approvals', limits), history: [], sessionId };
    const wantsEvents = (context.req.header('accept') ?? '').includes('text/event-stream');
    const started = await start(context, request, wantsEvents ? heartbeatMs : Number.POSITIVE_INFINITY, true);
    const headers = runHeaders(started, request);
    if (wantsEvents) return eventStream(eventFrames(started.events, onErrorFor(context)), { onCancel: started.abort, heartbeatMs, headers });
    return context.json((await started.stream.run).toJSON(), 200, headers);
  });

  app.post('/agents/:name/ag-ui', async (context) => {
    const request = parseAgUiRequest(await readJsonBody(context.req.raw, limits), limits);
    const started = await start(context, request, heartbeatMs);
    return eventStream(agUiFrames(started.events, request.threadId, request.runId, onErrorFor(context)), {
      onCancel: started.abort,
      heartbeatMs,
      headers: runHeaders(started, request),
    });
  });

  app.post('/agents/:name/chat', async (context) => {
    const request = await parseUiChatRequest(await readJsonBody(context.req.raw, limits), limits);
    const started = await start(context, request, heartbeatMs);
    return eventStream(uiFrames(guarded(started.events, onErrorFor(context))), {
      onCancel: started.abort,
      heartbeatMs,
      headers: { ...runHeaders(started, request), 'x-vercel-ai-ui-message-stream': 'v1' },
    });
  });

  function onErrorFor(context: Context<AppEnv>): (error: unknown) => void {
    return (error) => onError(error, context.req.raw);
  }

  return app;
}

interface CheckedOptions {
  readonly agents: ReadonlyMap<string, Askable>;
  readonly limits: RequestLimits & typeof DEFAULTS;
  readonly authenticate: Authenticate;
  readonly sessionMode: 'server' | 'client';
  readonly heartbeatMs: number;
  readonly onError: (error: unknown, request: Request) => void;
}

/** Checks every option once, at construction: unknown keys, auth, limits, CORS. Nothing random or async happens here. */
function checkOptions(options: AgentAppOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('createAgentApp needs an options object');
  assertKnownKeys(options, OPTION_KEYS, 'createAgentApp', { authenticate: 'auth', sessionStore: 'sessions', store: 'sessions', timeoutMs: 'runTimeoutMs' });
  if (!Array.isArray(options.agents) || options.agents.length === 0) throw new ConfigurationError('createAgentApp needs at least one agent (agents: [...])');
  const agents = new Map<string, Askable>();
  for (const agent of options.agents) {
    if (agents.has(agent.name)) throw new ConfigurationError(`Two agents are named ${agent.name}`);
    agents.set(agent.name, agent);
  }
  let authenticate: Authenticate;
  if (options.auth === 'none') authenticate = () => ({ actorId: 'anonymous' });
  else if (typeof options.auth === 'function') authenticate = options.auth;
  else {
    throw new ConfigurationError("createAgentApp needs auth: a function of the request returning { actorId, context } or null (401), or 'none' (demos: one anonymous actor)");
  }
  assertKnownKeys(options.limits ?? {}, Object.keys(DEFAULTS), 'createAgentApp limits');
  const limits = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`createAgentApp limits.${key} must be a positive integer`);
    limits[key as keyof typeof DEFAULTS] = value;
  }
  const sessionMode = options.sessionIds ?? 'server';
  const heartbeatMs = options.heartbeatMs ?? 2_000;
  const invalid = Object.entries({
    sessionIds: !['server', 'client'].includes(sessionMode),
    sessionScope: ![undefined, 'agent', 'app'].includes(options.sessionScope),
    heartbeatMs: !Number.isInteger(heartbeatMs) || heartbeatMs < 1,
    runTimeoutMs: options.runTimeoutMs !== undefined && !(options.runTimeoutMs > 0),
    keepRunsMs: options.keepRunsMs !== undefined && !(options.keepRunsMs > 0),
    onError: options.onError !== undefined && typeof options.onError !== 'function',
  }).find(([, bad]) => bad);
  if (invalid) throw new ConfigurationError(`createAgentApp has an invalid ${invalid[0]} (see AgentAppOptions)`);
  if (options.runs !== undefined && (options.runs as { version?: unknown } | null)?.version !== 'run-host-v1') {
    throw new ConfigurationError('createAgentApp runs must be a run host, e.g. durableRuns(env.RUNS) from ghostlight/cloudflare');
  }
  if (options.cors !== undefined && !isCorsPolicy(options.cors)) throw new ConfigurationError('createAgentApp cors must be a corsPolicy({ origin }) from ghostlight/http');
  const onError = options.onError ?? ((error: unknown) => console.error('ghostlight/http: unexpected error', error));
  return { agents, limits, authenticate, sessionMode, heartbeatMs, onError };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function resumePoint(context: Context<AppEnv>): number {
  const query = context.req.query('from');
  const lastEventId = context.req.header('last-event-id');
  const value = query !== undefined ? Number(query) : lastEventId !== undefined ? Number(lastEventId) + 1 : 0;
  if (!Number.isInteger(value) || value < 0) throw new HttpError(400, 'invalid_resume_point', 'from (or Last-Event-ID) must be a non-negative integer');
  return value;
}

/**
 * The events, until the log ends or fails; a failure found after the stream
 * started (a queued run that could not start) ends them, and its client-safe
 * description is written to `failure.message` (`onError` sees unexpected ones).
 */
async function* guarded(events: AsyncIterator<GhostlightEvent>, onError: (error: unknown) => void, failure: { code?: string; message?: string } = {}): AsyncGenerator<GhostlightEvent> {
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) yield next.value;
  } catch (error) {
    if (!HttpError.isInstance(error)) onError(error);
    failure.code = HttpError.isInstance(error) ? error.code : 'internal_error';
    failure.message = HttpError.isInstance(error) ? error.message : SAFE_START_FAILURE;
  } finally {
    await events.return?.(undefined);
  }
}

async function* eventFrames(events: AsyncIterator<GhostlightEvent>, onError: (error: unknown) => void): AsyncGenerator<SseFrame> {
  const failure: { code?: string; message?: string } = {};
  for await (const event of guarded(events, onError, failure)) yield { event: event.type, id: event.sequence, data: event };
  if (failure.message !== undefined) {
    yield { event: 'run-error', data: { type: 'run-error', outcome: 'failed', response: failure.message, error: { name: failure.code, message: failure.message } } };
  }
}

async function* agUiFrames(events: AsyncIterator<GhostlightEvent>, threadId: string, runId: string, onError: (error: unknown) => void): AsyncGenerator<SseFrame> {
  const encoder = new AgUiEncoder({ threadId, runId });
  const failure: { message?: string } = {};
  for await (const event of guarded(events, onError, failure)) for (const data of encoder.encode(event)) yield { data };
  for (const data of encoder.fail(failure.message ?? SAFE_START_FAILURE)) yield { data };
}

/** The UI message stream as SSE frames: one JSON `data:` line per chunk, the run's end (or a safe failure), then `data: [DONE]`. */
async function* uiFrames(events: AsyncIterable<GhostlightEvent>): AsyncGenerator<SseFrame> {
  const encoder = new UiMessageEncoder();
  for await (const event of events) {
    for (const data of encoder.encode(event)) yield { data };
    if (encoder.ended) break;
  }
  for (const data of encoder.fail(SAFE_START_FAILURE)) yield { data };
  yield { data: '[DONE]', raw: true };
}
