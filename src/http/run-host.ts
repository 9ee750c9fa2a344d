import type { InterjectionReply } from '../agent/interjections.ts';
import type { RunSummary } from '../agent/run.ts';
import type { GhostlightEvent } from '../events/events.ts';
import type { TraceContext } from '../instrumentation/trace-context.ts';
import type { RequestLimits } from './run-request.ts';

/** Which run a request means: the run id, its agent and the caller. A host answers a run of another agent or actor as unknown. */
export interface RunHostRef {
  readonly runId: string;
  readonly agent: string;
  readonly actorId: string;
}

/** What `POST /agents/:name/runs` hands a {@link RunHost} once the request is authenticated and checked. */
export interface RunHostStart extends RunHostRef {
  /** The run fields of the request body as the client sent them (`input`, `history`, `sessionId`), already checked by the app. */
  readonly body: { readonly input: unknown; readonly history?: unknown; readonly sessionId?: string | undefined };
  /** The app's request limits (the host parses the body again with them). */
  readonly limits: RequestLimits;
  /** `auth`'s context for the run's tools. */
  readonly context?: Record<string, unknown> | undefined;
  /** Whether the run uses the app's session store (the app checked that this actor may use `body.sessionId`). */
  readonly stored: boolean;
  /** A detached run keeps working when the client goes away; any other run is cancelled then. */
  readonly detach: boolean;
  /** When the run must end (epoch ms): past it, it ends `partial`. */
  readonly deadlineAt: number;
  readonly traceContext?: TraceContext | undefined;
}

/** What a client may send to `POST /agents/:name/runs/:runId/interject`, checked. */
export interface InterjectRequest {
  readonly message: string | readonly unknown[];
  readonly interjectionId?: string | undefined;
  readonly batchKey?: string | undefined;
  /**
   * false: answer as soon as the interjection is queued (202 `{interjectionId, state: "queued"}`), and read the
   * reply from the run's events. On Workers without a run host this is the only way: a request waiting for a run
   * that another request runs is cancelled by the runtime.
   */
  readonly wait: boolean;
}

/** The answer to an interjection sent with `wait: false`. */
export interface QueuedInterjection {
  readonly interjectionId: string;
  readonly state: 'queued';
}

/** The answer of the cancel route: whether the run is now being cancelled, or had already finished. */
export interface CancelAnswer {
  readonly runId: string;
  readonly state: 'cancelling' | 'finished';
}

/**
 * Where the runs of `POST /agents/:name/runs` live when they must outlive
 * their request: `createAgentApp({ runs })`. `durableRuns(env.RUNS)` from
 * `ghostlight/cloudflare` hosts each run in a Durable Object; without a host
 * the app keeps runs in its own isolate (`RunRegistry`). Every method throws
 * `HttpError`s for answers to the client (404 `unknown_run` for a run of
 * another actor, exactly as for one that never existed).
 */
export interface RunHost {
  readonly version: 'run-host-v1';
  /** Starts the run and resolves once it started (its first event), with its events from the first one on. */
  start(start: RunHostStart, signal: AbortSignal): Promise<AsyncIterator<GhostlightEvent>>;
  /** Starts the run and resolves with its summary once it finished (`POST /runs` answered as JSON). */
  result(start: RunHostStart, signal: AbortSignal): Promise<RunSummary>;
  /** The run's events from sequence `from`, live until its terminal event. */
  events(ref: RunHostRef, from: number, signal: AbortSignal): Promise<AsyncIterator<GhostlightEvent>>;
  /** Interjects into the live run and resolves with the model's reply (SPEC A18), or at once with `wait: false`. */
  interject(ref: RunHostRef, request: InterjectRequest, signal: AbortSignal): Promise<InterjectionReply | QueuedInterjection>;
  /**
   * Cancels the live run (cooperatively). `message` is, verbatim, the message
   * of the `CancelledError` the run ends with (its `run-cancel` event): the
   * cancel route passes `cancelledMessage(clientReason)`, the host's own
   * cancellations their own text ("The client went away").
   */
  cancel(ref: RunHostRef, message: string): Promise<CancelAnswer>;
}
