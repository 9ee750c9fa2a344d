import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';

const codeLimitMarker = errorMarker('CodeLimitError');

/** Which code-mode limit a program or session ran into. */
export type CodeLimitName =
  | 'source'
  | 'output'
  | 'memory'
  | 'stack'
  | 'cpu'
  | 'wall'
  | 'programs'
  | 'toolCalls'
  | 'pendingCalls';

/**
 * A code-mode program was refused or stopped because it reached a limit
 * (`limit` says which). It is a `ToolError`, so inside an agent the model
 * sees its message as the `exec`/`wait` error and can try again; `runCode`
 * rejects with it.
 *
 * @example
 * try { await runCode(source, { tools }); }
 * catch (error) { if (CodeLimitError.isInstance(error) && error.limit === 'cpu') retryLater(); }
 */
export class CodeLimitError extends ToolError {
  readonly [codeLimitMarker] = true;
  override readonly name = 'CodeLimitError';
  /** The limit that was reached. */
  readonly limit: CodeLimitName;

  constructor(limit: CodeLimitName, message: string) {
    super(message);
    this.limit = limit;
  }

  /** Whether `error` is a CodeLimitError. */
  static override isInstance = markerGuard<CodeLimitError>(codeLimitMarker);
}
