import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';

const sandboxLimitMarker = errorMarker('SandboxLimitError');

/**
 * One sandbox operation went past a per-operation limit: a file larger than
 * the read limit, content larger than the write limit, a listing or search
 * with too many entries. The message is LittleGhost's (`File exceeds the read
 * limit`); nothing was changed.
 */
export class SandboxLimitError extends ToolError {
  readonly [sandboxLimitMarker] = true;
  override readonly name = 'SandboxLimitError';
  /** The limit that was exceeded. */
  readonly limit: keyof SandboxLimits;

  constructor(limit: keyof SandboxLimits, message: string) {
    super(message);
    this.limit = limit;
  }

  /** Whether `error` is a SandboxLimitError. */
  static override isInstance = markerGuard<SandboxLimitError>(sandboxLimitMarker);
}
