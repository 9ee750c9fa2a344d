import { ProviderError } from './control-errors.ts';
import { errorMarker, markerGuard } from './ghostlight-error.ts';

const overflowMarker = errorMarker('ContextWindowOverflowError');

/**
 * The provider refused the request because it does not fit the model's
 * context window (OpenAI `context_length_exceeded`, Anthropic "prompt is too
 * long", an OpenAI-compatible server's "maximum context length", Anthropic's
 * `model_context_window_exceeded` stop). Not retried as it is; with
 * `manageContext()` the run compacts the conversation once and tries again.
 */
export class ContextWindowOverflowError extends ProviderError {
  readonly [overflowMarker] = true;
  override readonly name = 'ContextWindowOverflowError';

  constructor(options: { message?: string; cause?: unknown; statusCode?: number } = {}) {
    super(options.message ?? 'The model context window was exceeded', {
      cause: options.cause,
      ...(options.statusCode !== undefined ? { statusCode: options.statusCode } : {}),
    });
  }

  /** Whether `error` is a ContextWindowOverflowError. */
  static override isInstance = markerGuard<ContextWindowOverflowError>(overflowMarker);
}
