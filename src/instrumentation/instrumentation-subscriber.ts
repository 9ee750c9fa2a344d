import type { Operation } from './operation.ts';
import type { TraceContext } from './trace-context.ts';

/** One attribute value: what OpenTelemetry attributes may hold. */
export type AttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];

/** An operation's or event's attributes; `undefined` values are left out. */
export type Attributes = Readonly<Record<string, AttributeValue | undefined>>;

/**
 * The operations Ghostlight reports, outermost first: `run` (one agent
 * invocation), `agent`, `agent_turn`, `model` (one provider call), `tool`
 * (caller `model`, `code` or `application`), `code_program`,
 * `session_store`, `mcp_discovery`; `subagent` and `assembly_step` belong to
 * delegation and assemblies. Applications and capabilities may add their own.
 */
export type OperationName =
  | 'run'
  | 'agent'
  | 'agent_turn'
  | 'model'
  | 'tool'
  | 'code_program'
  | 'session_store'
  | 'mcp_discovery'
  | 'subagent'
  | 'assembly_step'
  | (string & {});

/**
 * Point events inside an operation: `model_retry`, `structured_result`,
 * `tool_loop`, `context_compaction`, `agent_interjection_delivered`, or an
 * application's own.
 */
export type InstrumentationEventName =
  | 'model_retry'
  | 'structured_result'
  | 'tool_loop'
  | 'context_compaction'
  | 'agent_interjection_delivered'
  | (string & {});

/**
 * Receives a run's operations and events. Every method is optional, is
 * called synchronously on the run's path and should return quickly; what a
 * subscriber throws (or rejects with) is caught, reported once through the
 * bus's `onError`, and never reaches the run.
 */
export interface InstrumentationSubscriber {
  /** An operation started (`operation.parent` is its parent; `attributes` are its start attributes). */
  start?(name: OperationName, attributes: Attributes, operation: Operation): void;
  /** An operation ended (`operation.error` is set when it failed; `attributes` are the finish attributes). */
  finish?(name: OperationName, attributes: Attributes, operation: Operation): void;
  /** A point event inside `operation`. */
  emit?(name: InstrumentationEventName, attributes: Attributes, operation: Operation): void;
  /** Sends what is buffered (a Worker calls the bus's `flush` in `ctx.waitUntil`). */
  flush?(): void | Promise<void>;
  /** Flushes and releases resources; the bus reports nothing afterwards. */
  shutdown?(): void | Promise<void>;
  /** The W3C trace context of an operation (a tracing subscriber's span), for outgoing requests and clients. */
  traceContext?(operation: Operation): TraceContext | undefined;
}
