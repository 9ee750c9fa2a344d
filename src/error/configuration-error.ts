import { GhostlightError, errorMarker, markerGuard } from './ghostlight-error.ts';

const configurationMarker = errorMarker('ConfigurationError');
const capabilityMarker = errorMarker('CapabilityError');

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
