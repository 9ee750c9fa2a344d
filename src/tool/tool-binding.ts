import type { ToolResume } from './tool-suspension.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { JsonObject } from '../util/json.ts';

/**
 * Who is asking and on whose behalf: values the application establishes after
 * authenticating a request. The model never sets any of them.
 */
export interface Invocation {
  /** The run's id (a UUID). */
  readonly runId: string;
  /** The conversation's id; defaults to the run id. */
  readonly sessionId: string;
  /** The authenticated caller, when the application supplied one. */
  readonly actorId: string | undefined;
  /** Application request values (account ids, roles). Use these for permission checks. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Application metadata carried with the run (never sent to the model). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The absolute deadline in epoch milliseconds, if any. */
  readonly deadline: number | undefined;
}

/** Mutable, JSON-only working state of one run (may be restored from a session: re-check before trusting). */
export type RunState = JsonObject;

/** Identifies the run a tool is bound to. */
export interface RunHandle {
  /** The run's id. */
  readonly runId: string;
  /** The invocation: identity and application context. */
  readonly invocation: Invocation;
  /**
   * The metadata of the latest delivered interjection that carried some (SPEC A18): it governs hooks and tools
   * from its model boundary until another replaces it, and agents used as tools inherit it.
   */
  readonly interjectionMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The run-scoped collaborators a tool receives: never model arguments.
 *
 * Keep identity on `run.invocation`, working state on `state` and the
 * model-selected input in `execute`'s first argument; that separation keeps
 * permission checks honest.
 *
 * Capabilities add their collaborators by declaration merging: importing
 * `ghostlight/workspace` adds `workspace`, `ghostlight/sandbox` adds
 * `sandbox`, `ghostlight/artifacts` adds `artifacts`. A capability entry that
 * is not imported adds nothing, to the types or to the bundle.
 */
export interface ToolBinding {
  /** The run this tool is bound to. */
  readonly run: RunHandle;
  /** The agent running the tool. */
  readonly agent: { readonly name: string };
  /** Mutable working state of the run. */
  readonly state: RunState;
  /** Aborts when the run is cancelled or reaches its deadline. */
  readonly signal: AbortSignal;
  /**
   * The instrumentation operation this code runs inside, when the run is
   * instrumented: the agent's while tools are resolved, the tool call's own
   * in `execute`. Start child operations on it, or read its `traceContext()`
   * for outgoing requests.
   */
  readonly operation?: Operation | undefined;
}

/** Who asked for a tool call. */
export type ToolCaller = 'model' | 'code' | 'application';

/** The binding of one tool call: the run binding plus the call's identity. */
export interface ToolCallBinding extends ToolBinding {
  /** The id of this call (use it as an idempotency key). */
  readonly toolCallId: string;
  /** Whether the model, a code-mode program or the application made the call. */
  readonly caller: ToolCaller;
  /** Set when the call continues one that suspended for approval (`suspendForApproval`): the answer and its state. */
  readonly resume?: ToolResume | undefined;
}
