import { InvocationError } from '../error/control-errors.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const unsupportedInputMarker = errorMarker('UnsupportedInputError');

/**
 * The selected model cannot take some of the input (images, PDFs, other
 * documents). Raised before the provider request; the run ends `failed` and
 * its response is this message.
 */
export class UnsupportedInputError extends InvocationError {
  readonly [unsupportedInputMarker] = true;
  override readonly name = 'UnsupportedInputError';

  /** Whether `error` is an UnsupportedInputError. */
  static override isInstance = markerGuard<UnsupportedInputError>(unsupportedInputMarker);
}
