import type { Agent, RunStream } from '../agent/agent.ts';
import { CancelledError, InvocationError } from '../error/control-errors.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';
import type { GhostlightEvent } from '../events/events.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { TraceContext } from '../instrumentation/trace-context.ts';
import { SessionActorError, SessionStoreError } from '../session/session-errors.ts';
import type { SessionStore } from '../session/session-store.ts';
import type { AuthResult } from './agent-app-options.ts';
import { HttpError } from './http-error.ts';
import type { RunRequest } from './run-request.ts';

/** A started run: its stream, its events from the first one on, and how to abort it. */
export interface StartedRun {
  readonly stream: RunStream;
  readonly events: AsyncIterable<GhostlightEvent>;
  readonly abort: () => void;
}

/** What every run started over HTTP shares. */
export interface StartRunSettings {
  readonly sessions?: SessionStore | undefined;
  readonly runTimeoutMs?: number | undefined;
  readonly instrumentation?: Instrumentation | undefined;
}

/**
 * Starts a run for a request and waits for its first event, so that errors
 * found before the run starts (bad input, a session owned by another actor,
 * an unavailable store) become 4xx/5xx responses instead of half-sent
 * streams. The client's disconnect (`request.signal`) aborts the run.
 */
export async function startRun(agent: Agent, request: RunRequest, auth: AuthResult, settings: StartRunSettings, signal: AbortSignal, traceContext?: TraceContext): Promise<StartedRun> {
  const controller = new AbortController();
  const abort = () => controller.abort(new CancelledError({ message: 'The client went away' }));
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  let stream: RunStream;
  try {
    stream = agent.stream(request.input, {
      actorId: auth.actorId,
      context: auth.context,
      sessionId: request.sessionId,
      history: request.history,
      sessions: request.sessionId !== undefined ? settings.sessions : undefined,
      signal: controller.signal,
      ...(settings.runTimeoutMs !== undefined ? { deadline: Date.now() + settings.runTimeoutMs } : {}),
      ...(settings.instrumentation ? { instrumentation: settings.instrumentation } : {}),
      ...(traceContext ? { traceContext } : {}),
    });
  } catch (error) {
    throw toHttpError(error);
  }
  const iterator = stream.events()[Symbol.asyncIterator]();
  let first: IteratorResult<GhostlightEvent>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw toHttpError(error);
  }
  async function* events(): AsyncGenerator<GhostlightEvent> {
    try {
      if (first.done) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }
  return { stream, events: events(), abort };
}

/** Reads a session for its actor, with the same error mapping as a run. */
export async function loadSession(store: SessionStore, sessionId: string, actorId: string) {
  try {
    return await store.load(sessionId, { actorId });
  } catch (error) {
    throw toHttpError(GhostlightError.isInstance(error) ? error : new SessionStoreError('The session store failed while loading the session', { cause: error }));
  }
}

/** Maps errors found before a run starts to HTTP errors; anything else is rethrown as is (a 500). */
function toHttpError(error: unknown): unknown {
  if (InvocationError.isInstance(error)) return new HttpError(400, 'invalid_input', error.message);
  if (SessionActorError.isInstance(error)) return new HttpError(403, 'session_forbidden', error.message);
  if (SessionStoreError.isInstance(error)) return new HttpError(503, 'session_unavailable', 'The session store is unavailable; please retry');
  if (CancelledError.isInstance(error)) return new HttpError(499, 'client_closed', 'The client closed the request');
  return error;
}
