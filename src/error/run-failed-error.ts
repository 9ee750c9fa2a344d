import { GhostlightError, errorMarker, markerGuard } from './ghostlight-error.ts';

const runFailedMarker = errorMarker('RunFailedError');

/**
 * A run failed for a reason the application may want to branch on, named by
 * `causeCode` (the seed's Little Workflow error). The run is not thrown away:
 * `agent.ask` returns it with outcome `failed` and this error on `run.error`.
 *
 * @example
 * if (RunFailedError.isInstance(run.error) && run.error.causeCode === 'capability_drift') replan();
 */
export class RunFailedError extends GhostlightError {
  readonly [runFailedMarker] = true;
  override readonly name = 'RunFailedError';
  /** A stable machine-readable cause, e.g. `capability_drift`. */
  readonly causeCode: string;

  constructor(causeCode: string, message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
    this.causeCode = causeCode;
  }

  /** Whether `error` is a RunFailedError. */
  static override isInstance = markerGuard<RunFailedError>(runFailedMarker);
}
