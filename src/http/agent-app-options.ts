import type { Agent } from '../agent/agent.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { SessionStore } from '../session/session-store.ts';

/** Who the application says is calling: set by `auth`, never by the client or the model. */
export interface AuthResult {
  /** The trusted caller (owns the sessions it creates). */
  readonly actorId: string;
  /** Application values for tools' permission checks (account ids, roles). */
  readonly context?: Record<string, unknown>;
}

/** Request limits; every request over one gets a 4xx JSON error that names the limit. */
export interface AgentAppLimits {
  /** Largest request body in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Most messages a request may carry (default 500). */
  readonly maxMessages?: number;
  /** Longest text input, in characters (default 100,000). */
  readonly maxInputChars?: number;
}

/** Which origins may call the app from a browser (Hono's CORS options); no CORS headers when absent. */
export interface AgentAppCors {
  readonly origin: string | string[] | ((origin: string) => string | undefined | null);
  readonly allowHeaders?: string[];
  readonly exposeHeaders?: string[];
  readonly credentials?: boolean;
  readonly maxAge?: number;
}

/** Options of {@link createAgentApp}. */
export interface AgentAppOptions {
  /** The agents served, by name (`/agents/:name/...`). */
  readonly agents: readonly Agent[];
  /**
   * Authenticates a request: return `{ actorId, context }`, or null to
   * answer 401. Throw an `HttpError` to answer with another status.
   */
  readonly auth: (request: Request) => AuthResult | null | undefined | Promise<AuthResult | null | undefined>;
  /** Where conversations persist; with it, `sessionId` (AG-UI `threadId`, `useChat` id) continues a conversation. */
  readonly sessions?: SessionStore | undefined;
  readonly limits?: AgentAppLimits | undefined;
  readonly cors?: AgentAppCors | undefined;
  /** A deadline for every run, in milliseconds from its start (past it the run ends `partial`). */
  readonly runTimeoutMs?: number | undefined;
  /** Called with every unexpected error (for logs); the client only ever sees a generic message. */
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
}
