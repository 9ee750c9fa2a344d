import { GhostlightError, errorMarker, markerGuard } from './ghostlight-error.ts';

const configurationMarker = errorMarker('ConfigurationError');
const capabilityMarker = errorMarker('CapabilityError');
const sessionRequiredMarker = errorMarker('SessionRequiredError');

/**
 * Bad configuration, detected before a run starts (an invalid tool name, a
 * name collision, an unsupported schema). This is the only kind of error that
 * `agent.ask` throws instead of returning a failed Run.
 */
export class ConfigurationError extends GhostlightError {
  readonly [configurationMarker] = true;
  override readonly name: string = 'ConfigurationError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is a ConfigurationError (or a subclass). */
  static override isInstance = markerGuard<ConfigurationError>(configurationMarker);
}

/** A capability or scope would be widened beyond what its parent grants. */
export class CapabilityError extends ConfigurationError {
  readonly [capabilityMarker] = true;
  override readonly name = 'CapabilityError';

  /** Whether `error` is a CapabilityError. */
  static override isInstance = markerGuard<CapabilityError>(capabilityMarker);
}

/**
 * A run that needs a session store got none: one of its tools can wait for
 * approval, and a run waits in its session. Over HTTP, a request that names
 * no session this actor may use gets a 4xx instead of a 500.
 */
export class SessionRequiredError extends ConfigurationError {
  readonly [sessionRequiredMarker] = true;
  override readonly name = 'SessionRequiredError';

  /** Whether `error` is a SessionRequiredError. */
  static override isInstance = markerGuard<SessionRequiredError>(sessionRequiredMarker);
}
