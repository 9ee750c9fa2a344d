import { GhostlightError, errorMarker, markerGuard } from './ghostlight-error.ts';

const protocolMarker = errorMarker('ProtocolError');
const outputLimitMarker = errorMarker('OutputLimitError');

/**
 * The model or a peer broke the protocol: duplicate tool call ids, too many
 * turns or tool calls, a stream that ended without a response. A run that hits
 * one ends `failed`.
 */
export class ProtocolError extends GhostlightError {
  readonly [protocolMarker] = true;
  override readonly name: string = 'ProtocolError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is a ProtocolError (or a subclass). */
  static override isInstance = markerGuard<ProtocolError>(protocolMarker);
}

/** The model stopped at an output limit before completing its response. */
export class OutputLimitError extends ProtocolError {
  readonly [outputLimitMarker] = true;
  override readonly name = 'OutputLimitError';

  constructor(options: { message?: string; cause?: unknown } = {}) {
    super(options.message ?? 'The model stopped before completing its response', { cause: options.cause });
  }

  /** Whether `error` is an OutputLimitError. */
  static override isInstance = markerGuard<OutputLimitError>(outputLimitMarker);
}
