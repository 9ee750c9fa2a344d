import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';

const workspaceErrorMarker = errorMarker('WorkspaceError');

/** What went wrong in a workspace operation, for callers that branch on it. */
export type WorkspaceErrorCode =
  | 'invalid-path'
  | 'unknown-path'
  | 'not-found'
  | 'not-a-file'
  | 'not-a-directory'
  | 'already-exists'
  | 'not-empty'
  | 'invalid-text'
  | 'not-open'
  | 'protected-path';

/**
 * A workspace operation failed: a malformed or unknown reference, a missing
 * file, a file where a directory was expected. It is a `ToolError`, so when a
 * tool lets it through the model sees its message; messages never contain
 * anything but the logical reference the caller gave.
 */
export class WorkspaceError extends ToolError {
  readonly [workspaceErrorMarker] = true;
  override readonly name: string = 'WorkspaceError';
  /** The kind of failure. */
  readonly code: WorkspaceErrorCode;

  constructor(code: WorkspaceErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }

  /** Whether `error` is a WorkspaceError (or a subclass). */
  static override isInstance = markerGuard<WorkspaceError>(workspaceErrorMarker);
}
