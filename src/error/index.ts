export { GhostlightError } from './ghostlight-error';
export type { GhostlightErrorOptions } from './ghostlight-error';
export { ConfigurationError, CapabilityError } from './configuration-error';
export { ProtocolError, OutputLimitError } from './protocol-error';
export {
  CancelledError,
  CleanupError,
  DeadlineExceededError,
  InvocationError,
  ProviderError,
  isControlError,
} from './control-errors';
export { RunFailedError } from './run-failed-error';
