import { ConfigurationError } from '../error/configuration-error.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const policyMarker = errorMarker('PolicyError');

/**
 * A sandbox policy, limit set or scope profile is invalid (an unknown access
 * mode, a non-positive limit, an unknown capability). Raised when the
 * sandbox or scope is built, never during a tool call.
 */
export class PolicyError extends ConfigurationError {
  readonly [policyMarker] = true;
  override readonly name = 'PolicyError';

  /** Whether `error` is a PolicyError. */
  static override isInstance = markerGuard<PolicyError>(policyMarker);
}
