import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const assemblyMarker = errorMarker('AssemblyError');
const limitMarker = errorMarker('AssemblyLimitError');
const routingMarker = errorMarker('AssemblyRoutingError');
const timeoutMarker = errorMarker('AssemblyStepTimeoutError');

/** A composite assembly (Workflow, Swarm, Graph) could not go on. The run ends `failed` with it. */
export class AssemblyError extends GhostlightError {
  readonly [assemblyMarker] = true;
  override readonly name: string = 'AssemblyError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is an AssemblyError (or a subclass). */
  static override isInstance = markerGuard<AssemblyError>(assemblyMarker);
}

/**
 * An assembly reached one of its limits: `maxSteps`, `maxHandoffRepeats`, or a
 * step's event buffer (10,000 events or 10 MiB).
 */
export class AssemblyLimitError extends AssemblyError {
  readonly [limitMarker] = true;
  override readonly name = 'AssemblyLimitError';

  /** Whether `error` is an AssemblyLimitError. */
  static override isInstance = markerGuard<AssemblyLimitError>(limitMarker);
}

/**
 * An assembly could not choose where to go: a graph node matched two conditional
 * edges or none, a swarm member chose an undeclared handoff.
 */
export class AssemblyRoutingError extends AssemblyError {
  readonly [routingMarker] = true;
  override readonly name = 'AssemblyRoutingError';

  /** Whether `error` is an AssemblyRoutingError. */
  static override isInstance = markerGuard<AssemblyRoutingError>(routingMarker);
}

/** A step outlived its own `timeout` (cooperative: the child was asked to stop at that deadline). */
export class AssemblyStepTimeoutError extends AssemblyError {
  readonly [timeoutMarker] = true;
  override readonly name = 'AssemblyStepTimeoutError';

  /** Whether `error` is an AssemblyStepTimeoutError. */
  static override isInstance = markerGuard<AssemblyStepTimeoutError>(timeoutMarker);
}
