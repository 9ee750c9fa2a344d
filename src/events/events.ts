import type { Usage } from '../agent/usage.ts';
import type { ToolCaller } from '../tool/tool-binding.ts';

/** Fields every event carries. */
export interface EventEnvelope {
  /** The run that wrote the event. */
  readonly runId: string;
  /** The position in the run's log, from 0. */
  readonly sequence: number;
  /** Epoch milliseconds when the event was written. */
  readonly time: number;
}

/** Why a model step ended (AI SDK's unified finish reasons). */
export type FinishReason = import('ai').FinishReason;

/** The outcome of a run; `waiting`: it stopped for approvals and `agent.resume` continues it. */
export type RunOutcome = 'completed' | 'failed' | 'partial' | 'cancelled' | 'waiting';

/** A tool call waiting for a person's approval (a `waiting` run lists them). */
export interface PendingApproval {
  /** The id an answer names (AI SDK's `approvalId`). */
  readonly approvalId: string;
  readonly toolCallId: string;
  /** The tool, under the name the model called. */
  readonly toolName: string;
  /** The arguments the call will run with if approved (an answer cannot change them). */
  readonly input: unknown;
  /** Set when a program made the call: the model's call that runs the program (code mode's `exec`). */
  readonly parentToolName?: string;
  /** Epoch milliseconds when the run asked. */
  readonly requestedAt: number;
  /** Epoch milliseconds after which the request is answered as a denial (`approvalTimeout`). */
  readonly expiresAt?: number;
}

/** A serialisable description of an error, safe to send to clients. */
export interface ErrorInfo {
  /** The error's name, e.g. `ProtocolError`. */
  readonly name: string;
  /** The error's message (for provider errors, the safe message). */
  readonly message: string;
}

/** What happened to a subagent (SPEC A14's observer events; tool_started and tool_finished report its tool calls). */
export type SubagentEventName =
  | 'spawned'
  | 'message_queued'
  | 'factory_failed'
  | 'turn_started'
  | 'turn_finished'
  | 'turn_failed'
  | 'cancelled'
  | 'activity'
  | 'tool_started'
  | 'tool_finished';

/** Where a subagent identity is: waiting for work, queued, running a turn, saving it, or failed or cancelled (re-spawn it). */
export type SubagentStatus = 'idle' | 'queued' | 'running' | 'persisting' | 'failed' | 'cancelled';

/**
 * A subagent's lifecycle, written to its parent run's log by the subagents
 * capability (`ghostlight/subagents`). It never carries message content: the
 * task, the messages and the responses stay with the model-facing tools.
 */
export interface SubagentEventPayload {
  type: 'subagent';
  event: SubagentEventName;
  /** The identity's canonical path, `/root/<task_name>`. */
  subagentId: string;
  /** The declared kind it was spawned as. */
  kind: string;
  /** Its status after the event. */
  status: SubagentStatus;
  /** The id of its conversation (stable across runs when it persists); absent when it could not be created. */
  conversationId?: string;
  /** Whether the identity was restored from an earlier run's registry. */
  resumed?: boolean;
  /** The identity's turn the event belongs to (1 is the spawned task). */
  turn?: number;
  /** The run id of the child run executing that turn (from `turn_started` on). */
  subagentRunId?: string;
  /** The parent's tool call that queued the turn (`spawn_subagent` or `send_message_to_subagent`). */
  parentToolCallId?: string;
  /** For `tool_started` and `tool_finished`: the child's tool call. */
  toolCallId?: string;
  toolName?: string;
  /** For `tool_finished`: how the call went. */
  toolStatus?: 'success' | 'error';
  /** For `turn_failed` and `factory_failed`: the error's name (never its message). */
  errorType?: string;
}

/** The composite kinds of `ghostlight/assemblies`. */
export type CompositeKind = 'workflow' | 'swarm' | 'graph';

/** Which assembly wrote an assembly event and which of its steps it is about. */
interface AssemblyEventSource {
  /** The assembly's name. */
  assembly: string;
  assemblyKind: CompositeKind;
}

/** One step of an assembly: a participant (agent or nested assembly) run once, with its retries. */
interface AssemblyStepSource extends AssemblyEventSource {
  stepId: string;
  /** The participant's name in its assembly (`as`, the member id, the node id). */
  participant: string;
  /** The graph branch (the id of the fan-out target it started from), inside a fan-out. */
  branchId?: string;
}

/**
 * What composite assemblies write to their run's log (SPEC A13 "Assembly
 * events"): each step's start, stop, failure and retry, and the moves
 * between steps (graph transitions, fan-outs and fan-ins, swarm handoffs).
 * Events of a nested assembly name it in `assembly`.
 */
export type AssemblyEventPayload =
  | (AssemblyStepSource & { type: 'assembly-step-start'; step: number })
  | (AssemblyStepSource & { type: 'assembly-step-stop'; step: number; usage: Usage })
  | (AssemblyStepSource & {
      type: 'assembly-step-error';
      /** The attempt that failed, from 1. */
      attempt: number;
      /** The error's name (never its message). */
      errorType: string;
      /** False when the step is retried. */
      terminal: boolean;
    })
  | (AssemblyStepSource & { type: 'assembly-step-retry'; attempt: number; errorType: string; delay: number })
  | (AssemblyEventSource & {
      type: 'assembly-transition';
      step: number;
      from: string;
      to: string;
      /** A graph error edge, taken because `from` failed. */
      error?: boolean;
      /** A swarm handoff. */
      handoff?: boolean;
      branchId?: string;
    })
  | (AssemblyEventSource & { type: 'assembly-fork'; from: string; branches: readonly string[] })
  | (AssemblyEventSource & { type: 'assembly-join'; from: readonly string[]; to: string })
  | (AssemblyEventSource & { type: 'assembly-handoff-loop'; from: string; to: string; count: number });

/** One enclosing step of a participant, from the outside inward. */
export interface AssemblyPathStep {
  readonly assembly: string;
  readonly assemblyKind: CompositeKind;
  readonly participant: string;
  readonly stepId: string;
  readonly branchId?: string;
}

/** Which participant an `agent-stream` event comes from. */
export interface AgentStreamSource {
  /** The participant agent's name. */
  readonly agent: string;
  /** Its run (one attempt of one step). */
  readonly runId: string;
  /** The enclosing Workflow, Swarm and Graph steps, outside first. */
  readonly assemblyPath: readonly AssemblyPathStep[];
}

/**
 * A copied, frozen event of one participant of a composite assembly, with its
 * source (SPEC A13 "Contextual agent_stream"). It arrives before the ordinary
 * event when that one reaches the stream too (the answering participant's).
 * Composites write them by default (`includeAgentEvents: false` turns them
 * off); AG-UI and the UI-message stream ignore them.
 */
export interface AgentStreamPayload {
  type: 'agent-stream';
  source: AgentStreamSource;
  event: EventPayload;
  /** On the wrapper of a participant's `invocation-start`: the input it was given. */
  input?: unknown;
}

/** The event types and their payloads, before the envelope is added. */
export type EventPayload =
  | { type: 'run-start'; sessionId: string; agent: string }
  | { type: 'trace-context'; traceId: string; traceparent: string; tracestate?: string }
  | { type: 'invocation-start'; agent: string }
  | { type: 'model-start'; turn: number }
  | { type: 'message-start'; turn: number; messageId: string }
  | { type: 'text-delta'; turn: number; messageId: string; text: string }
  | { type: 'reasoning-delta'; turn: number; messageId: string; text: string }
  | { type: 'tool-call-start'; turn: number; toolCallId: string; toolName: string }
  | { type: 'tool-call-delta'; turn: number; toolCallId: string; delta: string }
  | { type: 'tool-call-stop'; turn: number; toolCallId: string; toolName: string; input: unknown }
  | { type: 'message-stop'; turn: number; messageId: string; text: string; finishReason: FinishReason }
  | { type: 'model-stop'; turn: number; finishReason: FinishReason; usage: Usage }
  | { type: 'usage'; turn: number; usage: Usage; total: Usage }
  | {
      /**
       * A model call failed transiently and is retried after `delay` ms. The
       * attempt's streamed text (`partialText`, also the text of any open
       * message) is superseded: the next attempt streams a new message.
       */
      type: 'model-retry';
      turn: number;
      /** The attempt that failed, from 1. */
      attempt: number;
      /** Milliseconds until the next attempt. */
      delay: number;
      /** The failure's error name (`AI_APICallError`, …). */
      errorClass: string;
      /** The text the failed attempt had streamed (discard it). */
      partialText: string;
      /** The provider's HTTP status, when it answered with one. */
      httpStatus?: number;
    }
  | {
      /** `manageContext()` compacted the conversation (or tried to). */
      type: 'context-compaction';
      turn: number;
      /** `threshold`: the estimate crossed the threshold; `overflow`: the provider refused the request. */
      reason: 'threshold' | 'overflow';
      /** `failed`: the request went on unchanged (threshold) or the overflow stands. */
      outcome: 'compacted' | 'failed';
      /** The estimated tokens of the request before compaction. */
      estimatedTokens: number;
      /** The context window compaction worked with. */
      contextWindowTokens: number;
      /** How many fewer messages the conversation has (the summarised ones, less the summary). */
      removedMessages?: number;
      /** The tokens the summary itself cost (added to the run's usage). */
      usage?: Usage;
      /** Why compaction failed. */
      error?: ErrorInfo;
    }
  | {
      type: 'tool-start';
      toolCallId: string;
      toolName: string;
      input: unknown;
      caller: ToolCaller;
      parentToolCallId?: string;
    }
  | {
      type: 'tool-stop';
      toolCallId: string;
      toolName: string;
      caller: ToolCaller;
      parentToolCallId?: string;
      status: 'success' | 'error';
      content: string;
      value: unknown;
      durationMs: number;
    }
  | { type: 'program-start'; programId: string; source: string }
  | {
      type: 'program-observe';
      programId: string;
      via: 'exec' | 'wait' | 'stop';
      status: 'completed' | 'error' | 'still_working' | 'terminated';
      output: string;
      value?: unknown;
      error?: string;
    }
  | ({ type: 'tool-approval-request' } & PendingApproval)
  | {
      /** How a pending call was answered (by a person, or by expiry or a new message as a denial). */
      type: 'tool-approval-response';
      approvalId: string;
      toolCallId: string;
      toolName: string;
      approved: boolean;
      reason?: string;
      /** Set when a program made the call: the model's call that runs the program again (its result follows). */
      parentToolName?: string;
    }
  | { type: 'agent-interjection-delivered'; turn: number; interjectionIds: readonly string[]; batchKey?: string }
  | SubagentEventPayload
  | AssemblyEventPayload
  | AgentStreamPayload
  | { type: 'invocation-stop'; agent: string; usage: Usage }
  | { type: 'invocation-error'; agent: string; usage: Usage; error: ErrorInfo }
  | { type: 'run-stop'; outcome: 'completed'; response: string; output: unknown }
  | { type: 'run-partial'; outcome: 'partial'; response: string; error: ErrorInfo }
  | { type: 'run-cancel'; outcome: 'cancelled'; response: ''; error: ErrorInfo }
  | { type: 'run-error'; outcome: 'failed'; response: string; error: ErrorInfo; cleanupFailed: boolean }
  | { type: 'run-waiting'; outcome: 'waiting'; response: string; approvals: readonly PendingApproval[] };

/** One event of a run's log. A discriminated union on `type`. */
export type GhostlightEvent = EventPayload & EventEnvelope;

/** The event of one type. */
export type EventOf<TYPE extends GhostlightEvent['type']> = Extract<GhostlightEvent, { type: TYPE }>;

/** Whether `event` is an assembly event (`assembly-step-start`, `assembly-transition`, …). */
export function isAssemblyEvent(event: GhostlightEvent): event is GhostlightEvent & AssemblyEventPayload {
  return event.type.startsWith('assembly-');
}

/** The five terminal event types; exactly one ends every run. */
export const TERMINAL_EVENT_TYPES = ['run-stop', 'run-partial', 'run-cancel', 'run-error', 'run-waiting'] as const;

/** Whether `event` ends its run. */
export function isTerminalEvent(event: GhostlightEvent): event is EventOf<(typeof TERMINAL_EVENT_TYPES)[number]> {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(event.type);
}
