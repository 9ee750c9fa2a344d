import { ProviderError } from '../error/control-errors.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const connectionMarker = errorMarker('McpConnectionError');

/**
 * The MCP server could not be reached: the host did not answer, refused the
 * connection, or the request timed out. A `ProviderError`, so an `optional`
 * toolset absorbs it; the message names the server's origin, never a path,
 * query or credentials.
 */
export class McpConnectionError extends ProviderError {
  readonly [connectionMarker] = true;
  override readonly name = 'McpConnectionError';

  /** Whether `error` is an McpConnectionError. */
  static override isInstance = markerGuard<McpConnectionError>(connectionMarker);
}
