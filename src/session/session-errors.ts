import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const actorMarker = errorMarker('SessionActorError');
const storeMarker = errorMarker('SessionStoreError');
const busyMarker = errorMarker('SessionBusyError');

/** A session was accessed by an actor other than the one that owns it. */
export class SessionActorError extends GhostlightError {
  readonly [actorMarker] = true;
  override readonly name = 'SessionActorError';

  constructor() {
    super({ message: 'Session actor does not match' });
  }

  /** Whether `error` is a SessionActorError. */
  static override isInstance = markerGuard<SessionActorError>(actorMarker);
}

/** The session store failed while loading or saving; the run that needed it fails. */
export class SessionStoreError extends GhostlightError {
  readonly [storeMarker] = true;
  override readonly name = 'SessionStoreError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is a SessionStoreError. */
  static override isInstance = markerGuard<SessionStoreError>(storeMarker);
}

/**
 * The run's deadline passed while it was still waiting for another run of
 * its session to finish: it never started (over HTTP, a 409 `session_busy`).
 */
export class SessionBusyError extends GhostlightError {
  readonly [busyMarker] = true;
  override readonly name = 'SessionBusyError';

  constructor(options: { cause?: unknown } = {}) {
    super({ message: 'The session is busy with another run; the run did not start', cause: options.cause });
  }

  /** Whether `error` is a SessionBusyError. */
  static override isInstance = markerGuard<SessionBusyError>(busyMarker);
}
