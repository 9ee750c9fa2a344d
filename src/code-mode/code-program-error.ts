import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';

const codeProgramMarker = errorMarker('CodeProgramError');

/**
 * A program run by `runCode` threw (or rejected) instead of returning. The
 * message is the program's own error text (`TypeError: x is not a function`,
 * with its QuickJS stack); `output` holds what it wrote with `text` first.
 */
export class CodeProgramError extends ToolError {
  readonly [codeProgramMarker] = true;
  override readonly name = 'CodeProgramError';
  /** Output the program produced before it failed. */
  readonly output: string;

  constructor(message: string, output: string) {
    super(message);
    this.output = output;
  }

  /** Whether `error` is a CodeProgramError. */
  static override isInstance = markerGuard<CodeProgramError>(codeProgramMarker);
}
