export { EventLog } from './event-log.ts';
export { TERMINAL_EVENT_TYPES, isAssemblyEvent, isTerminalEvent } from './events.ts';
export type {
  AgentStreamPayload,
  AgentStreamSource,
  AssemblyEventPayload,
  AssemblyPathStep,
  CompositeKind,
  ErrorInfo,
  EventEnvelope,
  EventOf,
  EventPayload,
  FinishReason,
  GhostlightEvent,
  PendingApproval,
  RunOutcome,
  SubagentEventName,
  SubagentEventPayload,
  SubagentStatus,
} from './events.ts';
