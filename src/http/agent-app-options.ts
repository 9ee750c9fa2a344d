import type { Askable } from '../agent/askable.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { SessionStore } from '../session/session-store.ts';
import type { CorsPolicy } from './cors-policy.ts';
import type { RunHost } from './run-host.ts';

/** Who the application says is calling: set by `auth`, never by the client or the model. */
export interface AuthResult {
  /** The trusted caller (owns the sessions it creates). */
  readonly actorId: string;
  /** Application values for tools' permission checks (account ids, roles). */
  readonly context?: Record<string, unknown>;
}

/** Authenticates a request: `{ actorId, context }`, or null to answer 401. Throw an `HttpError` for another status. */
export type Authenticate = (request: Request) => AuthResult | null | undefined | Promise<AuthResult | null | undefined>;

/** Request limits; every request over one gets a 4xx JSON error that names the limit. */
export interface AgentAppLimits {
  /** Largest request body in bytes (default 1 MiB), checked from `Content-Length` and while reading. */
  readonly maxBodyBytes?: number | undefined;
  /** Most messages (or content parts of one message) a request may carry (default 500). */
  readonly maxMessages?: number | undefined;
  /**
   * Most characters of text and data in one request, all strings together:
   * the input, every history message, tool arguments and results, file data
   * (default 100,000).
   */
  readonly maxInputChars?: number | undefined;
  /** Deepest nesting of arrays and objects in a request body, tool arguments included (default 64). */
  readonly maxJsonDepth?: number | undefined;
  /** Shortest session id a client may choose, with `sessionIds: 'client'` (default 16). */
  readonly minSessionIdLength?: number | undefined;
  /** Most runs one actor keeps readable for resuming (default 100); the oldest go first. */
  readonly maxRunsPerActor?: number | undefined;
  /** Most runs kept readable for resuming, all actors together (default 1,000). */
  readonly maxRuns?: number | undefined;
}

/**
 * The settings of `corsPolicy` (Hono's CORS options). `credentials: true` is
 * refused with `origin: '*'` or with a function that accepts any origin
 * (`ConfigurationError`).
 */
export interface AgentAppCors {
  readonly origin: string | string[] | ((origin: string) => string | undefined | null);
  readonly allowHeaders?: string[] | undefined;
  /** Response headers scripts may read; `x-ghostlight-run-id` and `x-ghostlight-session-id` are always exposed. */
  readonly exposeHeaders?: string[] | undefined;
  readonly credentials?: boolean | undefined;
  readonly maxAge?: number | undefined;
}

/** Options of {@link createAgentApp}. */
export interface AgentAppOptions {
  /** The agents served, by name (`/agents/:name/...`); composite assemblies (`ghostlight/assemblies`) are served the same way. */
  readonly agents: readonly Askable[];
  /**
   * Authenticates a request: return `{ actorId, context }`, or null to
   * answer 401. Throw an `HttpError` to answer with another status. Required:
   * `'none'` serves every request as the one actor `anonymous` (demos only).
   */
  readonly auth: Authenticate | 'none';
  /** Where conversations persist; with it, a session id (`sessionId`, AG-UI `threadId`, `useChat` id) continues a conversation. */
  readonly sessions?: SessionStore | undefined;
  /**
   * Who chooses session ids. `'server'` (default): ids come from
   * `POST /agents/:name/sessions`, and a run naming any other id is a 404.
   * `'client'`: a client may name a new id (at least `limits.minSessionIdLength`
   * characters; use random ids, as `useChat` and AG-UI clients do).
   */
  readonly sessionIds?: 'server' | 'client' | undefined;
  /**
   * `'agent'` (default): each agent has its own sessions, so one agent never
   * reads or extends another's conversation. `'app'`: all agents share them.
   */
  readonly sessionScope?: 'agent' | 'app' | undefined;
  readonly limits?: AgentAppLimits | undefined;
  /** Which origins may call the app from a browser: `corsPolicy({ origin })`; no CORS headers when absent. */
  readonly cors?: CorsPolicy | undefined;
  /** A deadline for every run, in milliseconds from its start (past it the run ends `partial`; still queued, `409 session_busy`). */
  readonly runTimeoutMs?: number | undefined;
  /**
   * On streaming routes: a run not started within this many milliseconds gets
   * its headers anyway, and every stream writes an SSE comment after this long
   * without an event, so a client that left is noticed on runtimes that only
   * notice at a write (Workers). Default 2,000.
   */
  readonly heartbeatMs?: number | undefined;
  /** Called with every unexpected error (default: `console.error`); the client only ever sees a generic message. */
  readonly onError?: ((error: unknown, request: Request) => void) | undefined;
  /** How long a finished run's events stay readable for resuming readers, in this isolate (default 60 s). */
  readonly keepRunsMs?: number | undefined;
  /** Reports every run the app starts here, instead of each agent's own `instrumentation`. */
  readonly instrumentation?: Instrumentation | undefined;
  /**
   * Whether a run continues the W3C trace context (`traceparent`, `tracestate`) of its request (default true):
   * its spans join the caller's trace, and AG-UI clients get it back as `ghostlight.trace_context`.
   */
  readonly continueTraces?: boolean | undefined;
  /**
   * Where `POST /agents/:name/runs` runs live: `durableRuns(env.RUNS)` from
   * `ghostlight/cloudflare` hosts each in a Durable Object, so its events
   * resume, and interject and cancel reach it, from any isolate and after a
   * restart. Default: this isolate (`keepRunsMs`). AG-UI and chat runs always
   * stay in the request's isolate.
   */
  readonly runs?: RunHost | undefined;
}
