export { EventLog } from './event-log';
export { TERMINAL_EVENT_TYPES, isTerminalEvent } from './events';
export type {
  ErrorInfo,
  EventEnvelope,
  EventOf,
  EventPayload,
  FinishReason,
  GhostlightEvent,
  RunOutcome,
} from './events';
