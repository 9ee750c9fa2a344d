export { GhostlightError } from './ghostlight-error.ts';
export type { GhostlightErrorOptions } from './ghostlight-error.ts';
export { ConfigurationError, CapabilityError, SessionRequiredError } from './configuration-error.ts';
export { ProtocolError, OutputLimitError } from './protocol-error.ts';
export {
  CANCELLED_MESSAGE,
  CancelledError,
  cancelledMessage,
  CleanupError,
  DeadlineExceededError,
  InvocationError,
  ProviderError,
  isControlError,
} from './control-errors.ts';
export { RunFailedError } from './run-failed-error.ts';
export { ContextWindowOverflowError } from './context-window-overflow-error.ts';
export { AgentInterjectionError } from './agent-interjection-error.ts';
export { ApprovalError } from './approval-error.ts';
