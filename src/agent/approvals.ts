import { ApprovalError } from '../error/approval-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import type { PendingApproval } from '../events/events.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolResume } from '../tool/tool-suspension.ts';
import { canonicalJson, isPlainObject } from '../util/json.ts';
import type { JsonObject, JsonValue } from '../util/json.ts';
import { sha256HexSync } from '../util/sha256.ts';
import type { ResolvedLimits } from './limits.ts';

/** The session metadata key under which a waiting run keeps what it needs to continue. */
export const PARKED_RUN_KEY = 'ghostlight:parked-run';

/** The denial reason of a request nobody answered in time. */
export const APPROVAL_EXPIRED_REASON = 'The approval request expired';

/** The denial reason of requests left unanswered when a new message arrived in the session. */
export const APPROVAL_SUPERSEDED_REASON = 'A new message arrived before the approval was answered';

/** The error result of an approved call whose run stopped (a crash, a reload) before it finished. */
export const ORPHANED_CALL_MESSAGE = 'The tool call was interrupted before it finished: the run executing it stopped';

/** The error result of an approved call whose tool changed (description or input schema) while it waited. */
export const TOOL_CHANGED_MESSAGE = 'The tool changed while the approval was pending, so the call did not run';

/** A person's answer to one pending approval: by `approvalId` (or `toolCallId`), approved or denied with a reason. */
export interface ApprovalAnswer {
  /** The request's `approvalId` (AI SDK's name); `toolCallId` works too. */
  readonly approvalId?: string | undefined;
  readonly toolCallId?: string | undefined;
  readonly approved: boolean;
  /** Why: a denial's reason reaches the model as the tool's error result. */
  readonly reason?: string | undefined;
}

/** One call of the parked batch, as stored in the session. */
export interface ParkedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonValue;
  /** Set for calls that wait for approval. */
  readonly approval?: {
    readonly approvalId: string;
    readonly expiresAt?: number;
    readonly toolHash: string;
    /** Set when the call suspended for approval of a call it makes (code mode): that call, and the state to continue with. */
    readonly suspended?: { readonly toolName: string; readonly input: JsonValue; readonly state: JsonValue };
  };
  /** Set for calls that ran before the run stopped (they needed no approval). */
  readonly result?: { readonly status: 'success' | 'error'; readonly content: string };
}

/** What a waiting run stores in its session to be continued by any process (JSON). */
export interface ParkedRun {
  readonly version: 1;
  /** The id of this stop: the claim that makes an approved call run exactly once is made on it. */
  readonly parkId: string;
  readonly runId: string;
  readonly agent: string;
  /** The turn whose tool calls wait. */
  readonly turn: number;
  /** The counted tool calls so far (the waiting batch included). */
  readonly toolCalls: number;
  /** The limits the run started with (a resume keeps them). */
  readonly limits: ResolvedLimits;
  readonly requestedAt: number;
  readonly calls: readonly ParkedCall[];
}

/** How one call of a parked batch is settled when the run continues. */
export type SettledCall =
  | { readonly kind: 'run'; readonly call: ParkedCall; readonly resume?: ToolResume; readonly answer?: { approved: boolean; reason?: string } }
  | { readonly kind: 'result'; readonly call: ParkedCall; readonly status: 'success' | 'error'; readonly content: string; readonly answer?: { approved: boolean; reason?: string } };

/** The hash a pending call keeps of its tool's model-facing contract (description and input schema). */
export function toolHash(tool: Tool | undefined): string {
  if (!tool) return '';
  return sha256HexSync(canonicalJson({ description: tool.description, input: tool.input.jsonSchema }));
}

/** The pending approvals of a parked run, as a waiting run reports them. */
export function pendingApprovals(parked: ParkedRun): PendingApproval[] {
  return parked.calls.flatMap((call) =>
    call.approval
      ? [{
          approvalId: call.approval.approvalId,
          toolCallId: call.toolCallId,
          toolName: call.approval.suspended?.toolName ?? call.toolName,
          input: call.approval.suspended?.input ?? call.input,
          ...(call.approval.suspended ? { parentToolName: call.toolName } : {}),
          requestedAt: parked.requestedAt,
          ...(call.approval.expiresAt === undefined ? {} : { expiresAt: call.approval.expiresAt }),
        }]
      : [],
  );
}

/**
 * The approvals a session's waiting run asks for (none when it is not
 * waiting): read from a snapshot (`store.load(...)`), e.g. to show them again
 * after a reload.
 */
export function pendingApprovalsIn(snapshot: { readonly metadata: JsonObject } | undefined): PendingApproval[] {
  const parked = readParkedRun(snapshot?.metadata);
  return parked ? pendingApprovals(parked) : [];
}

/** The parked run in a session's metadata, checked; undefined when there is none. */
export function readParkedRun(metadata: JsonObject | undefined): ParkedRun | undefined {
  const value = metadata?.[PARKED_RUN_KEY];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value) || value.version !== 1 || typeof value.parkId !== 'string' || !Array.isArray(value.calls)) {
    throw new ProtocolError('Session store returned an invalid parked run');
  }
  return value as unknown as ParkedRun;
}

/** The answers of a resume, checked against the parked batch: each pending call answered once, expired ones denied. */
export function checkAnswers(parked: ParkedRun, answers: readonly ApprovalAnswer[], now: number): Map<string, { approved: boolean; reason?: string }> {
  if (!Array.isArray(answers)) throw new ApprovalError('approvals must be a list of { approvalId, approved, reason? }');
  const byId = new Map<string, ParkedCall>();
  for (const call of parked.calls) {
    if (!call.approval) continue;
    byId.set(call.approval.approvalId, call);
    byId.set(call.toolCallId, call);
  }
  const decided = new Map<string, { approved: boolean; reason?: string }>();
  for (const answer of answers) {
    if (!isPlainObject(answer) || typeof answer.approved !== 'boolean') throw new ApprovalError('An approval answer needs approved: true or false');
    if (answer.reason !== undefined && typeof answer.reason !== 'string') throw new ApprovalError('An approval reason must be text');
    const id = answer.approvalId ?? answer.toolCallId;
    const call = typeof id === 'string' ? byId.get(id) : undefined;
    if (!call) throw new ApprovalError(`No approval is pending for ${String(id)}`);
    if (decided.has(call.toolCallId)) throw new ApprovalError(`Approval ${call.approval!.approvalId} was answered twice`);
    const known = new Set(['approvalId', 'toolCallId', 'approved', 'reason']);
    const extra = Object.keys(answer).find((key) => !known.has(key));
    if (extra !== undefined) throw new ApprovalError(`An approval answer cannot change the call (${extra})`);
    decided.set(call.toolCallId, { approved: answer.approved, ...(answer.reason === undefined ? {} : { reason: answer.reason }) });
  }
  for (const call of parked.calls) {
    if (!call.approval) continue;
    const expired = call.approval.expiresAt !== undefined && call.approval.expiresAt <= now;
    if (expired) decided.set(call.toolCallId, { approved: false, reason: APPROVAL_EXPIRED_REASON });
    else if (!decided.has(call.toolCallId)) throw new ApprovalError(`Approval ${call.approval.approvalId} (${call.toolName}) has no answer`);
  }
  return decided;
}

/** Every pending call denied with `reason` (a new message in the session), expired ones with the expiry reason. */
export function denyAll(parked: ParkedRun, reason: string, now: number): Map<string, { approved: boolean; reason?: string }> {
  const decided = new Map<string, { approved: boolean; reason?: string }>();
  for (const call of parked.calls) {
    if (!call.approval) continue;
    const expired = call.approval.expiresAt !== undefined && call.approval.expiresAt <= now;
    decided.set(call.toolCallId, { approved: false, reason: expired ? APPROVAL_EXPIRED_REASON : reason });
  }
  return decided;
}

/**
 * How each call of the parked batch ends: its earlier result, a denial (the
 * reason as the tool's error result), an orphan's error, or `run` for an
 * approved call this run executes.
 */
export function settleCalls(
  parked: ParkedRun,
  decided: ReadonlyMap<string, { approved: boolean; reason?: string }>,
  orphaned: boolean,
  currentTool: (name: string) => Tool | undefined,
  resuming = true,
): SettledCall[] {
  return parked.calls.map((call): SettledCall => {
    if (call.result) return { kind: 'result', call, status: call.result.status, content: call.result.content };
    const answer = decided.get(call.toolCallId) ?? { approved: false, reason: APPROVAL_EXPIRED_REASON };
    const suspended = call.approval!.suspended;
    if (suspended) {
      // The suspended call continues either way: it hands the answer (a denial as an error) to what it was doing.
      if (orphaned) return { kind: 'result', call, status: 'error', content: ORPHANED_CALL_MESSAGE, answer };
      // A new message instead of an answer: what was suspended is abandoned, not continued (it could stop again).
      if (!resuming) return { kind: 'result', call, status: 'error', content: denialText({ toolName: suspended.toolName }, answer.reason), answer };
      const changed = answer.approved && toolHash(currentTool(suspended.toolName)) !== call.approval!.toolHash;
      const resume: ToolResume = changed
        ? { approved: false, reason: TOOL_CHANGED_MESSAGE, state: suspended.state }
        : { approved: answer.approved, ...(answer.reason === undefined ? {} : { reason: answer.reason }), state: suspended.state };
      return { kind: 'run', call, resume, answer };
    }
    if (!answer.approved) return { kind: 'result', call, status: 'error', content: denialText(call, answer.reason), answer };
    if (orphaned) return { kind: 'result', call, status: 'error', content: ORPHANED_CALL_MESSAGE, answer };
    if (toolHash(currentTool(call.toolName)) !== call.approval!.toolHash) return { kind: 'result', call, status: 'error', content: TOOL_CHANGED_MESSAGE, answer };
    return { kind: 'run', call, answer };
  });
}

/** The model-visible result of a denied call. */
export function denialText(call: Pick<ParkedCall, 'toolName'>, reason: string | undefined): string {
  return `The user denied the ${call.toolName} call${reason ? `: ${reason}` : ''}`;
}

/** A parked call as the executor takes it (with how to continue it, for a suspended one). */
export function requestOf(call: ParkedCall, resume?: ToolResume): ToolCallRequest {
  return { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, ...(resume ? { resume } : {}) };
}
