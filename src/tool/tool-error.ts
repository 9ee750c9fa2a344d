import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const toolErrorMarker = errorMarker('ToolError');

/**
 * An expected tool failure the model can act on. Its message is shown to the
 * model, so keep it safe to disclose; any other exception thrown by a tool is
 * reported to the model only as `Tool failed (<name>)`.
 *
 * @example
 * if (!mayRefund(binding.run.invocation.actorId)) throw new ToolError('permission denied');
 */
export class ToolError extends GhostlightError {
  readonly [toolErrorMarker] = true;
  override readonly name: string = 'ToolError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is a ToolError (or a subclass). */
  static override isInstance = markerGuard<ToolError>(toolErrorMarker);
}
