import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';

const workspaceLimitMarker = errorMarker('WorkspaceLimitError');

/** Which workspace limit a change would exceed. */
export type WorkspaceLimitName = 'maxFileBytes' | 'maxTotalBytes' | 'maxEntries';

/**
 * A change would exceed one of the workspace's storage limits (the size of
 * one file, the bytes of the whole workspace, or its number of entries).
 * Nothing was changed.
 */
export class WorkspaceLimitError extends ToolError {
  readonly [workspaceLimitMarker] = true;
  override readonly name = 'WorkspaceLimitError';
  /** The limit that would be exceeded. */
  readonly limit: WorkspaceLimitName;
  /** Its value. */
  readonly value: number;

  constructor(limit: WorkspaceLimitName, value: number) {
    super(LIMIT_MESSAGES[limit](value));
    this.limit = limit;
    this.value = value;
  }

  /** Whether `error` is a WorkspaceLimitError. */
  static override isInstance = markerGuard<WorkspaceLimitError>(workspaceLimitMarker);
}

const LIMIT_MESSAGES: Record<WorkspaceLimitName, (value: number) => string> = {
  maxFileBytes: (value) => `File exceeds the workspace limit of ${value} bytes`,
  maxTotalBytes: (value) => `Workspace exceeds its storage limit of ${value} bytes`,
  maxEntries: (value) => `Workspace exceeds its limit of ${value} entries`,
};
