import type { RunStream } from '../agent/agent.ts';
import type { Askable } from '../agent/askable.ts';
import { isAgent } from '../agent/as-tool.ts';
import { isApprovalResponse } from '../agent/invocation.ts';
import type { AgentInput } from '../agent/invocation.ts';
import { SessionRequiredError } from '../error/configuration-error.ts';
import { CancelledError, InvocationError } from '../error/control-errors.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';
import { ApprovalError } from '../error/approval-error.ts';
import type { GhostlightEvent } from '../events/events.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { TraceContext } from '../instrumentation/trace-context.ts';
import { SessionActorError, SessionBusyError, SessionStoreError } from '../session/session-errors.ts';
import type { SessionSnapshot, SessionStore } from '../session/session-store.ts';
import type { AuthResult } from './agent-app-options.ts';
import { HttpError } from './http-error.ts';
import type { RunRequest } from './run-request.ts';

/** A started run: its stream, its events from the first one on, and how to abort it. */
export interface StartedRun {
  readonly stream: RunStream;
  /** The events, first one included; errors found before the run started are thrown from here as `HttpError`s. */
  readonly events: AsyncIterator<GhostlightEvent>;
  readonly abort: () => void;
  /** Cancels the run with `message` as its `CancelledError`'s (the cancel route's "The run was cancelled: <reason>"); `abort` is "The client went away". */
  readonly cancel: (message: string) => void;
  /** Whether the run uses a session store. */
  readonly stored: boolean;
}

/** What every run started over HTTP shares. */
export interface StartRunSettings {
  /** The agent's (scoped) session store, when the request names a session. */
  readonly sessions?: SessionStore | undefined;
  readonly runTimeoutMs?: number | undefined;
  readonly instrumentation?: Instrumentation | undefined;
  /** Whether the app keeps sessions for this agent: then a run that needs one and got none is the client's 4xx. */
  readonly keepsSessions?: boolean | undefined;
  /** The run's id, when the host chose it (a Durable Object named after it). */
  readonly runId?: string | undefined;
}

/**
 * Starts a run for a request and waits for its first event — at most
 * `graceMs` (streaming routes) or until it comes (JSON) — so that errors
 * found before the run starts (bad input, an unavailable store, a session
 * still busy at the deadline) become 4xx/5xx responses instead of half-sent
 * streams. A run still not started after `graceMs` (queued behind another
 * run of its session, slow tool discovery) is returned anyway: its stream
 * starts, heartbeats let a departed client be noticed, and a later start
 * failure is thrown from `events` (the encoders end the stream with it).
 * The client's disconnect (`signal`) aborts the run, queued or running.
 */
export async function startRun(
  agent: Askable,
  request: RunRequest,
  auth: AuthResult,
  settings: StartRunSettings,
  signal: AbortSignal,
  graceMs = Number.POSITIVE_INFINITY,
  traceContext?: TraceContext,
): Promise<StartedRun> {
  const controller = new AbortController();
  const cancel = (message: string) => controller.abort(new CancelledError({ message }));
  const abort = () => cancel('The client went away');
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  const failure = (error: unknown) => (SessionRequiredError.isInstance(error) && settings.keepsSessions ? sessionRequired(agent.name, request.sessionId) : toHttpError(error));
  let stream: RunStream;
  try {
    // Approval answers continue an agent's waiting run; assemblies do not stop for approvals.
    if (isApprovalResponse(request.input) && !isAgent(agent)) throw new ApprovalError(`${agent.name} is not an agent: only agent runs wait for approvals`);
    stream = agent.stream(request.input as AgentInput, {
      actorId: auth.actorId,
      context: auth.context,
      sessionId: request.sessionId,
      history: request.history,
      sessions: request.sessionId !== undefined ? settings.sessions : undefined,
      signal: controller.signal,
      ...(settings.runTimeoutMs !== undefined ? { deadline: Date.now() + settings.runTimeoutMs } : {}),
      ...(settings.instrumentation ? { instrumentation: settings.instrumentation } : {}),
      ...(traceContext ? { traceContext } : {}),
      ...(settings.runId !== undefined ? { _internal: { runId: settings.runId } } : {}),
    });
  } catch (error) {
    throw failure(error);
  }
  const iterator = stream.events()[Symbol.asyncIterator]();
  const first = iterator.next().then(
    (result) => ({ result }),
    (error: unknown) => ({ error: failure(error) }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const early = await (Number.isFinite(graceMs)
    ? Promise.race([first, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), graceMs)))])
    : first);
  clearTimeout(timer);
  if (early && 'error' in early) {
    signal.removeEventListener('abort', abort);
    throw early.error;
  }
  async function* events(): AsyncGenerator<GhostlightEvent> {
    try {
      const settled = await first;
      if ('error' in settled) throw settled.error;
      if (settled.result.done) return;
      yield settled.result.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }
  return { stream, events: events(), abort, cancel, stored: request.sessionId !== undefined && settings.sessions !== undefined };
}

/**
 * Reads a session for its actor without claiming it: `foreign` when another
 * actor owns it (callers answer that exactly like an unknown id).
 */
export async function readSession(store: SessionStore, sessionId: string, actorId: string): Promise<{ snapshot?: SessionSnapshot | undefined; foreign?: true }> {
  try {
    return { snapshot: await store.load(sessionId, { actorId }) };
  } catch (error) {
    if (SessionActorError.isInstance(error)) return { foreign: true };
    throw toHttpError(GhostlightError.isInstance(error) ? error : new SessionStoreError('The session store failed while loading the session', { cause: error }));
  }
}

/** Maps errors found before a run starts to HTTP errors; anything else is returned as is (a 500). */
export function toHttpError(error: unknown): unknown {
  if (HttpError.isInstance(error)) return error;
  if (ApprovalError.isInstance(error)) return new HttpError(409, 'approval_refused', error.message);
  if (InvocationError.isInstance(error)) return new HttpError(400, 'invalid_input', error.message);
  if (SessionActorError.isInstance(error)) return unknownSession();
  if (SessionBusyError.isInstance(error)) return new HttpError(409, 'session_busy', error.message);
  if (SessionStoreError.isInstance(error)) return new HttpError(503, 'session_unavailable', 'The session store is unavailable; please retry');
  if (CancelledError.isInstance(error)) return new HttpError(499, 'client_closed', 'The client closed the request');
  return error;
}

/**
 * The answer for a run that waits for approvals in its session when the
 * request names no session this actor may use: a 404 for a named one (the
 * same answer whether it is unknown or another's), a 400 for none.
 */
function sessionRequired(agent: string, sessionId: string | undefined): HttpError {
  const how = `name a session of yours (POST /agents/${encodeURIComponent(agent)}/sessions issues one)`;
  if (sessionId !== undefined) return new HttpError(404, 'unknown_session', `No such session: agent ${agent} waits for approvals in a session, so ${how}`);
  return new HttpError(400, 'session_required', `Agent ${agent} waits for approvals in a session: ${how}`);
}

/** The one answer for a session id this actor may not use, whether it exists or not. */
export function unknownSession(): HttpError {
  return new HttpError(404, 'unknown_session', 'No such session');
}
