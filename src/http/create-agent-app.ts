import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { Agent } from '../agent/agent.ts';
import { AgUiEncoder } from '../ag-ui/ag-ui-encoder.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { GhostlightEvent } from '../events/events.ts';
import { traceContextFrom } from '../instrumentation/trace-context.ts';
import { toUiMessageStream } from '../ui-stream/to-ui-message-stream.ts';
import { uiMessageStreamResponse } from '../ui-stream/ui-message-stream-response.ts';
import type { AgentAppOptions, AuthResult } from './agent-app-options.ts';
import { parseAgUiRequest } from './ag-ui-request.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { readJsonBody } from './read-json-body.ts';
import { RunRegistry } from './run-registry.ts';
import { checkSessionId, parseRunRequest } from './run-request.ts';
import type { RequestLimits } from './run-request.ts';
import { sseResponse } from './sse-response.ts';
import type { SseFrame } from './sse-response.ts';
import { loadSession, startRun } from './start-run.ts';
import { parseUiChatRequest } from './ui-chat-request.ts';

type AppEnv = { Variables: { auth: AuthResult; agent: Agent } };

const DEFAULT_LIMITS: RequestLimits = { maxBodyBytes: 1024 * 1024, maxMessages: 500, maxInputChars: 100_000 };
const SAFE_START_FAILURE = 'The run could not start.';

/**
 * The HTTP surface of a set of agents: a Hono app that is a plain `fetch`
 * handler (Workers, Node, Deno, Bun, a Service Worker).
 *
 * - `GET /agents`: the agents' names.
 * - `POST /agents/:name/runs`: `{"input", "sessionId"?, "history"?}` → the Run as JSON, or with
 *   `Accept: text/event-stream` Ghostlight's own events as SSE (`id:` is the sequence number).
 * - `GET /agents/:name/runs/:runId/events?from=N` (or `Last-Event-ID`): resumes that stream.
 * - `GET /agents/:name/sessions/:sessionId`: the stored conversation (to restore a chat view).
 * - `POST /agents/:name/ag-ui`: AG-UI `RunAgentInput` → AG-UI events over SSE.
 * - `POST /agents/:name/chat`: AI SDK UI message stream (what `useChat` speaks).
 *
 * `auth` turns each request into `{ actorId, context }`; clients and models
 * never choose them. Errors are JSON `{"error": {"code", "message"}}`; no
 * stack trace or provider error reaches a client. A client that disconnects
 * cancels its run.
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
  const agents = new Map<string, Agent>();
  for (const agent of options.agents) {
    if (agents.has(agent.name)) throw new ConfigurationError(`Two agents are named ${agent.name}`);
    agents.set(agent.name, agent);
  }
  const limits: RequestLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const settings = { sessions: options.sessions, runTimeoutMs: options.runTimeoutMs, instrumentation: options.instrumentation };
  const traceOf = (request: Request) => (options.continueTraces === false ? undefined : traceContextFrom(request.headers));
  const registry = new RunRegistry(options.keepRunsMs ?? 60_000);
  const app = new Hono<AppEnv>();

  if (options.cors) {
    const { origin, ...rest } = options.cors;
    app.use('*', cors({ origin: typeof origin === 'function' ? (value) => origin(value) : origin, allowHeaders: ['content-type', 'authorization', 'last-event-id', 'traceparent', 'tracestate'], ...rest }));
  }
  app.onError((error, context) => {
    if (HttpError.isInstance(error)) return errorResponse(error.status, error.code, error.message);
    options.onError?.(error, context.req.raw);
    return errorResponse(500, 'internal_error', 'Internal server error');
  });
  app.notFound((context) => errorResponse(404, 'not_found', `No route for ${context.req.method} ${new URL(context.req.url).pathname}`));

  const authenticate: MiddlewareHandler<AppEnv> = async (context, next) => {
    const result = await options.auth(context.req.raw);
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

  app.get('/agents', (context) => context.json({ agents: [...agents.keys()] }));

  app.post('/agents/:name/runs', async (context) => {
    const request = parseRunRequest(await readJsonBody(context.req.raw, limits.maxBodyBytes), limits);
    const { agent, auth } = context.var;
    const wantsEvents = (context.req.header('accept') ?? '').includes('text/event-stream');
    const started = await startRun(agent, request, auth, settings, context.req.raw.signal, traceOf(context.req.raw));
    registry.add(started.stream, agent.name, auth.actorId);
    const headers = { 'x-ghostlight-run-id': started.stream.runId };
    if (wantsEvents) return sseResponse(eventFrames(started.events), started.abort, headers);
    const run = await started.stream.run;
    return context.json(run.toJSON(), 200, headers);
  });

  app.get('/agents/:name/runs/:runId/events', (context) => {
    const { agent, auth } = context.var;
    const stream = registry.get(context.req.param('runId'), agent.name, auth.actorId);
    if (!stream) throw new HttpError(404, 'unknown_run', 'No such run here: runs stay readable for a short time after they end, in the instance that ran them');
    const from = resumePoint(context);
    return sseResponse(eventFrames(stream.events(from)), () => undefined, { 'x-ghostlight-run-id': stream.runId });
  });

  app.get('/agents/:name/sessions/:sessionId', async (context) => {
    if (!options.sessions) throw new HttpError(404, 'no_sessions', 'This app keeps no sessions');
    const sessionId = checkSessionId(context.req.param('sessionId'), 'sessionId')!;
    const snapshot = await loadSession(options.sessions, sessionId, context.var.auth.actorId);
    return context.json({ sessionId, messages: snapshot?.messages ?? [], state: snapshot?.state ?? {} });
  });

  app.post('/agents/:name/ag-ui', async (context) => {
    const request = parseAgUiRequest(await readJsonBody(context.req.raw, limits.maxBodyBytes), limits);
    const { agent, auth } = context.var;
    const started = await startRun(agent, request, auth, settings, context.req.raw.signal, traceOf(context.req.raw));
    registry.add(started.stream, agent.name, auth.actorId);
    return sseResponse(agUiFrames(started.events, request.threadId, request.runId), started.abort, { 'x-ghostlight-run-id': started.stream.runId });
  });

  app.post('/agents/:name/chat', async (context) => {
    const request = await parseUiChatRequest(await readJsonBody(context.req.raw, limits.maxBodyBytes), limits);
    const { agent, auth } = context.var;
    const started = await startRun(agent, request, auth, settings, context.req.raw.signal, traceOf(context.req.raw));
    registry.add(started.stream, agent.name, auth.actorId);
    return uiMessageStreamResponse(toUiMessageStream(started.events, { safeMessage: SAFE_START_FAILURE, onCancel: started.abort }), {
      headers: { 'x-ghostlight-run-id': started.stream.runId },
    });
  });

  return app;
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

async function* eventFrames(events: AsyncIterable<GhostlightEvent>): AsyncGenerator<SseFrame> {
  try {
    for await (const event of events) yield { event: event.type, id: event.sequence, data: event };
  } catch {
    yield { event: 'run-error', data: { type: 'run-error', outcome: 'failed', response: SAFE_START_FAILURE, error: { name: 'Error', message: SAFE_START_FAILURE } } };
  }
}

async function* agUiFrames(events: AsyncIterable<GhostlightEvent>, threadId: string, runId: string): AsyncGenerator<SseFrame> {
  const encoder = new AgUiEncoder({ threadId, runId });
  try {
    for await (const event of events) for (const data of encoder.encode(event)) yield { data };
  } catch {
    // The log failed (bad configuration found late); the encoder closes the run below.
  }
  for (const data of encoder.fail(SAFE_START_FAILURE)) yield { data };
}
