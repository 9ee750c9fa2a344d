import { InvocationError } from '../error/control-errors.ts';
import { OutputLimitError } from '../error/protocol-error.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';

/** The message a failed run shows its caller, chosen so provider and internal details never leak. */
export function safeMessage(error: unknown): string {
  if (OutputLimitError.isInstance(error)) {
    return 'The model reached its output limit before completing a response. Please retry with a narrower request.';
  }
  if (GhostlightError.isInstance(error) && (error.name === 'ToolLoopError' || error.name === 'UnsupportedInputError')) {
    return error.message;
  }
  if (InvocationError.isInstance(error)) return error.message;
  if (GhostlightError.isInstance(error) && error.name === 'MalformedToolCallError') {
    return 'The model returned an invalid tool call before completing the response. Please retry with a narrower request.';
  }
  return 'I hit an error while generating a response. Please retry.';
}
