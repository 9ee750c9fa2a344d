import { pendingApprovalsIn } from '../agent/approvals.ts';
import type { ApprovalAnswer } from '../agent/approvals.ts';
import type { PendingApproval } from '../events/events.ts';
import type { SessionSnapshot } from '../session/session-store.ts';
import type { ApprovalResponse } from '../agent/invocation.ts';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';
import { checkMessageCount } from './run-request.ts';
import type { RequestLimits } from './run-request.ts';

const MAX_ID_CHARS = 200;

/**
 * Reads a client's approval answers: `[{ approvalId, approved, reason? }]`.
 * Nothing else is taken: an answer names a pending call and says yes or no
 * (with a reason); the arguments, tools and limits stay those of the stopped
 * run, whatever the client sends.
 */
export function readApprovalAnswers(value: unknown, field: string, limits: RequestLimits): ApprovalResponse {
  const answers = checkMessageCount(value, field, limits);
  if (answers.length === 0) throw new HttpError(400, 'invalid_approvals', `${field} must answer at least one approval`);
  return {
    approvals: answers.map((answer, index): ApprovalAnswer => {
      const where = `${field}[${index}]`;
      if (!isPlainObject(answer)) throw new HttpError(400, 'invalid_approvals', `${where} must be { approvalId, approved, reason? }`);
      const id = answer.approvalId;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS) throw new HttpError(400, 'invalid_approvals', `${where}.approvalId must be a non-empty string`);
      if (typeof answer.approved !== 'boolean') throw new HttpError(400, 'invalid_approvals', `${where}.approved must be true or false`);
      const reason = answer.reason;
      if (reason !== undefined && (typeof reason !== 'string' || reason.length > limits.maxInputChars)) {
        throw new HttpError(400, 'invalid_approvals', `${where}.reason must be text of at most ${limits.maxInputChars} characters`);
      }
      return { approvalId: id, approved: answer.approved, ...(reason === undefined ? {} : { reason }) };
    }),
  };
}

/**
 * The approval answers of a `useChat` request, when its last message is the
 * assistant's with tool parts in AI SDK's `approval-responded` state (what
 * `addToolApprovalResponse` produces); undefined otherwise. Only each part's
 * `approval.{id, approved, reason}` is read.
 */
export function uiApprovalAnswers(last: { role: string; parts: readonly unknown[] } | undefined, limits: RequestLimits): ApprovalResponse | undefined {
  if (last?.role !== 'assistant') return undefined;
  const answered = last.parts.flatMap((part) => {
    if (!isPlainObject(part) || part.state !== 'approval-responded' || !isPlainObject(part.approval)) return [];
    const { id, approved, reason } = part.approval;
    return [{ approvalId: id, approved, ...(reason === undefined ? {} : { reason }) }];
  });
  return answered.length > 0 ? readApprovalAnswers(answered, 'messages[-1] approvals', limits) : undefined;
}

/**
 * The approval answers of an AG-UI `RunAgentInput.resume` (AG-UI interrupts):
 * `[{ interruptId, status: 'resolved' | 'cancelled', payload? }]`, where the
 * interrupt id is the approval id; `resolved` approves unless
 * `payload.approved` is false, `cancelled` denies; `payload.reason` is the reason.
 */
export function agUiApprovalAnswers(resume: unknown, limits: RequestLimits): ApprovalResponse | undefined {
  if (resume === undefined || resume === null) return undefined;
  const entries = checkMessageCount(resume, 'resume', limits);
  return readApprovalAnswers(
    entries.map((entry, index) => {
      if (!isPlainObject(entry)) throw new HttpError(400, 'invalid_approvals', `resume[${index}] must be { interruptId, status, payload? }`);
      if (entry.status !== 'resolved' && entry.status !== 'cancelled') throw new HttpError(400, 'invalid_approvals', `resume[${index}].status must be resolved or cancelled`);
      const payload = isPlainObject(entry.payload) ? entry.payload : {};
      return { approvalId: entry.interruptId, approved: entry.status === 'resolved' && payload.approved !== false, ...(payload.reason === undefined ? {} : { reason: payload.reason }) };
    }),
    'resume',
    limits,
  );
}

/** The approvals a session's waiting run asks for (none when it is not waiting). */
export function sessionApprovals(snapshot: SessionSnapshot): PendingApproval[] {
  return pendingApprovalsIn(snapshot);
}
