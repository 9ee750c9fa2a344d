import type { ModelMessage, UserContent, UserModelMessage } from 'ai';
import { InvocationError } from '../error/control-errors.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { TraceContext } from '../instrumentation/trace-context.ts';
import type { CapabilitySnapshot } from '../registry/capability-snapshot.ts';
import type { ToolRegistry } from '../registry/tool-registry.ts';
import type { SessionStore } from '../session/session-store.ts';
import type { Invocation, RunState } from '../tool/tool-binding.ts';
import { randomId } from '../util/id.ts';
import { isPlainObject } from '../util/json.ts';
import type { ApprovalAnswer } from './approvals.ts';
import type { AgentLimits } from './limits.ts';
import type { ModelRegistry } from './model-registry.ts';
import type { RuntimeHook } from './runtime-hooks.ts';

/** What a run is asked: text, AI SDK user content parts, or a user message. */
export type AgentInput = string | UserContent | UserModelMessage;

/** The answers that continue a run waiting for approvals (`agent.resume`, or `agent.stream`/`agent.start` with this input). */
export interface ApprovalResponse {
  readonly approvals: readonly ApprovalAnswer[];
}

/** Whether `input` answers approvals rather than asking something new. */
export function isApprovalResponse(input: unknown): input is ApprovalResponse {
  return isPlainObject(input) && (input as { role?: unknown }).role === undefined && Array.isArray((input as { approvals?: unknown }).approvals);
}

/**
 * Options of `agent.ask` and `agent.stream`. Capability entries add the keys
 * they read by declaration merging (`ghostlight/workspace` adds `workspace`,
 * `ghostlight/sandbox` adds `sandbox`, `ghostlight/skills` adds `skillPaths`
 * and `skillResourceRoot`).
 */
export interface AskOptions {
  /** The authenticated caller. Set by the application, never by the model. */
  actorId?: string | undefined;
  /** Application request values (account ids, roles); read them in tools for permission checks. */
  context?: Record<string, unknown> | undefined;
  /** Application metadata carried with the run and never sent to the model. */
  metadata?: Record<string, unknown> | undefined;
  /** The conversation id (defaults to the run id). */
  sessionId?: string | undefined;
  /**
   * Continues the conversation `sessionId` from this store (with `actorId` as
   * its owner): restores history and state, checkpoints each completed turn,
   * and serialises runs of the same session.
   */
  sessions?: SessionStore | undefined;
  /** Earlier messages of the conversation, oldest first (a stored session's history takes precedence). */
  history?: readonly ModelMessage[] | undefined;
  /** Working state to start from (e.g. restored from a session). JSON values only. */
  state?: RunState | undefined;
  /** Cancels the run: it ends `cancelled` with an empty response. */
  signal?: AbortSignal | undefined;
  /** An absolute deadline (Date, epoch ms or ISO-8601 text): past it the run ends `partial`. */
  deadline?: Date | number | string | undefined;
  /** Limits for this run, over the agent's own. */
  limits?: AgentLimits | undefined;
  /** Resolves model names for this run (over the agent's registry). */
  models?: ModelRegistry | undefined;
  /** Supplies the tools the agent names by id (`tools: ['atlas.search']`); a missing id fails with `MissingToolError`. */
  toolRegistry?: ToolRegistry | undefined;
  /** Locked tool descriptors from planning time: a tool that changed since fails the run (`RunFailedError`, `capability_drift`). */
  capabilitySnapshot?: CapabilitySnapshot | undefined;
  /** Reports this run's operations here instead of the agent's `instrumentation`. */
  instrumentation?: Instrumentation | undefined;
  /** The remote parent the run continues (an incoming request's W3C `traceparent`, see `traceContextFrom`). */
  traceContext?: TraceContext | undefined;
  /**
   * The operation a nested run reports inside (a subagent's or an assembly step's tool call: its
   * `binding.operation`): the run's `run` operation becomes its child, on that operation's bus, with its
   * content capture. Takes precedence over `instrumentation`.
   */
  parentOperation?: Operation | undefined;
  /** The application's runtime hooks for this run (before the agent's own): preparation, session history, safe error messages. */
  runtimeHooks?: readonly RuntimeHook[] | undefined;
  /**
   * Milliseconds a call waiting for approval stays answerable; after that it
   * is answered as a denial ("The approval request expired"). Default: no expiry.
   */
  approvalTimeout?: number | undefined;
  /** Test-only injection of ids and clock. */
  _internal?: { runId?: string; now?: () => number };
}

/** Builds the run's invocation from the ask options. Throws `InvocationError` for unusable values. */
export function createInvocation(options: AskOptions): Invocation {
  const runId = options._internal?.runId ?? randomId();
  if (options.context !== undefined && !isPlainObject(options.context)) {
    throw new InvocationError('context must be a plain object');
  }
  if (options.actorId !== undefined && (typeof options.actorId !== 'string' || options.actorId.length === 0)) {
    throw new InvocationError('actorId must be a non-empty string');
  }
  if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId.length === 0)) {
    throw new InvocationError('sessionId must be a non-empty string');
  }
  const timeout = options.approvalTimeout;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)) {
    throw new InvocationError('approvalTimeout must be a positive number of milliseconds');
  }
  return Object.freeze({
    runId,
    sessionId: options.sessionId ?? runId,
    actorId: options.actorId,
    context: Object.freeze({ ...options.context }),
    metadata: Object.freeze({ ...options.metadata }),
    deadline: parseDeadline(options.deadline),
  });
}

/** Converts the input to the user message that starts the run. */
export function toUserMessage(input: AgentInput): UserModelMessage {
  if (typeof input === 'string') {
    if (input.length === 0) throw new InvocationError('Invocation requires a message');
    return { role: 'user', content: input };
  }
  if (Array.isArray(input)) {
    if (input.length === 0) throw new InvocationError('Invocation requires a message');
    return { role: 'user', content: input };
  }
  if (isPlainObject(input) && (input as { role?: unknown }).role === 'user') return input as UserModelMessage;
  throw new InvocationError('Invocation requires a message: text, user content parts or a user message');
}

function parseDeadline(deadline: AskOptions['deadline']): number | undefined {
  if (deadline === undefined) return undefined;
  const time = deadline instanceof Date ? deadline.getTime() : typeof deadline === 'string' ? Date.parse(deadline) : deadline;
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new InvocationError('deadline must be a valid time');
  return time;
}
