export { EventLog } from './event-log.ts';
export { TERMINAL_EVENT_TYPES, isTerminalEvent } from './events.ts';
export type {
  ErrorInfo,
  EventEnvelope,
  EventOf,
  EventPayload,
  FinishReason,
  GhostlightEvent,
  RunOutcome,
  SubagentEventName,
  SubagentEventPayload,
  SubagentStatus,
} from './events.ts';
