import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';

const structuredResultMarker = errorMarker('StructuredResultError');

/**
 * The model did not return a valid structured result, even after its one
 * repair turn (or the run ran out of turns first). The run ends `failed`.
 */
export class StructuredResultError extends ProtocolError {
  readonly [structuredResultMarker] = true;
  override readonly name = 'StructuredResultError';
  /** The name of the result schema. */
  readonly schemaName: string;
  /** What was wrong with the last result, one problem per entry (`$.answer is required`). */
  readonly validationErrors: readonly string[];

  constructor(message: string, options: { schemaName: string; validationErrors: readonly string[]; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.schemaName = options.schemaName;
    this.validationErrors = Object.freeze([...options.validationErrors]);
  }

  /** Whether `error` is a StructuredResultError. */
  static override isInstance = markerGuard<StructuredResultError>(structuredResultMarker);
}
