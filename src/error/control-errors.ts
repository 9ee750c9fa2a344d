import { GhostlightError, errorMarker, markerGuard } from './ghostlight-error.ts';
import { RunFailedError } from './run-failed-error.ts';

const cancelledMarker = errorMarker('CancelledError');
const deadlineMarker = errorMarker('DeadlineExceededError');
const cleanupMarker = errorMarker('CleanupError');
const invocationMarker = errorMarker('InvocationError');
const providerMarker = errorMarker('ProviderError');

/** The message of a run cancelled without a reason (SPEC A22 gives no wording; this is Ghostlight's). */
export const CANCELLED_MESSAGE = 'The run was cancelled';

/**
 * The message of a run cancelled with a reason an application or a client
 * gave (`execution.cancel(reason)`, `POST …/runs/:runId/cancel {"reason"}`):
 * "The run was cancelled: <reason>". The fixed prefix keeps a given reason
 * from reading as one of Ghostlight's own messages ("The client went away",
 * "The run passed its deadline", …), which never start with it. No reason (or
 * an empty one) gives {@link CANCELLED_MESSAGE}.
 */
export function cancelledMessage(reason?: string): string {
  return reason === undefined || reason === '' ? CANCELLED_MESSAGE : `${CANCELLED_MESSAGE}: ${reason}`;
}

/**
 * The run was cancelled through its `AbortSignal`. Raised inside tools and the
 * loop as control flow; it never becomes a tool result.
 */
export class CancelledError extends GhostlightError {
  readonly [cancelledMarker] = true;
  override readonly name = 'CancelledError';

  constructor(options: { message?: string; cause?: unknown } = {}) {
    super({ message: options.message ?? CANCELLED_MESSAGE, cause: options.cause });
  }

  /** Whether `error` is a CancelledError. */
  static override isInstance = markerGuard<CancelledError>(cancelledMarker);
}

/** The run's deadline passed. The run ends `partial`. */
export class DeadlineExceededError extends GhostlightError {
  readonly [deadlineMarker] = true;
  override readonly name = 'DeadlineExceededError';

  constructor(options: { message?: string; cause?: unknown } = {}) {
    super({ message: options.message ?? 'The run deadline was reached', cause: options.cause });
  }

  /** Whether `error` is a DeadlineExceededError. */
  static override isInstance = markerGuard<DeadlineExceededError>(deadlineMarker);
}

/**
 * Closing something the run owned failed. It turns a successful run into a
 * failed one with `cleanupFailed: true`; `errors` holds every close failure.
 */
export class CleanupError extends GhostlightError {
  readonly [cleanupMarker] = true;
  override readonly name = 'CleanupError';
  /** Every failure seen while closing, in the order they happened. */
  readonly errors: readonly unknown[];

  constructor(options: { errors: readonly unknown[]; message?: string }) {
    super({
      message: options.message ?? 'Closing the resources of the run failed',
      cause: options.errors[0],
    });
    this.errors = options.errors;
  }

  /** Whether `error` is a CleanupError. */
  static override isInstance = markerGuard<CleanupError>(cleanupMarker);
}

/** The input given to `ask` or `stream` cannot start a run. */
export class InvocationError extends GhostlightError {
  readonly [invocationMarker] = true;
  override readonly name: string = 'InvocationError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is an InvocationError (or a subclass). */
  static override isInstance = markerGuard<InvocationError>(invocationMarker);
}

/** A model provider call failed (network, HTTP status, malformed stream). */
export class ProviderError extends GhostlightError {
  readonly [providerMarker] = true;
  override readonly name: string = 'ProviderError';
  /** The HTTP status, when the provider answered with one. */
  readonly statusCode: number | undefined;

  constructor(message: string, options: { cause?: unknown; statusCode?: number } = {}) {
    super({ message, cause: options.cause });
    this.statusCode = options.statusCode;
  }

  /** Whether `error` is a ProviderError. */
  static override isInstance = markerGuard<ProviderError>(providerMarker);
}

/**
 * Whether `error` is control flow (cancel, deadline, cleanup, or a
 * `RunFailedError` such as capability drift) rather than a failure to report:
 * raised inside a tool, it ends the run instead of becoming a tool result.
 */
export function isControlError(error: unknown): boolean {
  return (
    CancelledError.isInstance(error) ||
    DeadlineExceededError.isInstance(error) ||
    CleanupError.isInstance(error) ||
    RunFailedError.isInstance(error)
  );
}
