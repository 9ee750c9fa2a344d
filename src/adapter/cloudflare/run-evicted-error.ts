import { GhostlightError, errorMarker, markerGuard } from '../../error/ghostlight-error.ts';

const evictedMarker = errorMarker('RunEvictedError');

/** What a durable run's `run-error` event and summary carry when its Durable Object lost the run mid-run. */
export const RUN_EVICTED_MESSAGE =
  "The run's Durable Object was evicted or restarted while the run was working. A run cannot be resumed in another instance, so it ended as failed; turns its session saved are kept.";

/**
 * A durable run ended because its Durable Object was evicted or restarted
 * while it worked (`defineRunDurableObject`): the next access, or the
 * object's alarm, finishes it as `failed` with this error's name and message.
 */
export class RunEvictedError extends GhostlightError {
  readonly [evictedMarker] = true;
  override readonly name = 'RunEvictedError';

  constructor() {
    super({ message: RUN_EVICTED_MESSAGE });
  }

  /** Whether `error` is a RunEvictedError. */
  static override isInstance = markerGuard<RunEvictedError>(evictedMarker);
}
