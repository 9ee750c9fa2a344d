import { InvocationError } from './control-errors.ts';
import { errorMarker, markerGuard } from './ghostlight-error.ts';

const approvalMarker = errorMarker('ApprovalError');

/**
 * An approval answer could not be taken: the session has no pending approval
 * ("No approval is pending in session <id>"), an answer names a call that is
 * not pending, a pending call has no answer, or the resume tried to change
 * what was approved ("An approval answer cannot change the limits").
 */
export class ApprovalError extends InvocationError {
  readonly [approvalMarker] = true;
  override readonly name = 'ApprovalError';

  /** Whether `error` is an ApprovalError. */
  static override isInstance = markerGuard<ApprovalError>(approvalMarker);
}
