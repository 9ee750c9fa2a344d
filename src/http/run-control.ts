import { interjectionContent } from '../agent/interjections.ts';
import type { InterjectionReply } from '../agent/interjections.ts';
import type { RunStream } from '../agent/agent.ts';
import { interject } from '../agent/interjections.ts';
import { randomId } from '../util/id.ts';
import { AgentInterjectionError } from '../error/agent-interjection-error.ts';
import { InvocationError, cancelledMessage } from '../error/control-errors.ts';
import { HttpError } from './http-error.ts';
import type { InterjectRequest, QueuedInterjection } from './run-host.ts';
import { checkModelMessage, checkText } from './run-request.ts';
import type { RequestLimits } from './run-request.ts';

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const KEY = /^[\w.:@-]{1,128}$/;
/** Longest cancel reason a client may give, in characters. */
export const MAX_CANCEL_REASON = 500;

/** Checks a run id from a URL: 1-128 letters, digits, `_` and `-` (run ids are UUIDs). */
export function checkRunId(value: string): string {
  if (!RUN_ID.test(value)) throw new HttpError(400, 'invalid_run_id', 'runId must be 1-128 letters, digits, _ and - (starting with a letter or digit)');
  return value;
}

/**
 * Parses `POST /agents/:name/runs/:runId/interject`: `{"message": "…" | [parts],
 * "interjectionId"?, "batchKey"?}`. The message is user content under the
 * same trust rule and limits as a run's input; only text, images and files.
 */
export function parseInterjectRequest(body: Record<string, unknown>, limits: RequestLimits): InterjectRequest {
  const { message, interjectionId, batchKey, wait } = body;
  if (wait !== undefined && typeof wait !== 'boolean') throw new HttpError(400, 'invalid_interjection', 'wait must be true or false');
  for (const [field, value] of [['interjectionId', interjectionId], ['batchKey', batchKey]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !KEY.test(value))) {
      throw new HttpError(400, 'invalid_interjection', `${field} must be 1-128 letters, digits and _ . : @ -`);
    }
  }
  let checked: string | unknown[];
  if (typeof message === 'string') checked = checkText(message, 'message', limits);
  else if (Array.isArray(message) && message.length > 0 && message.length <= limits.maxMessages) {
    checked = checkModelMessage({ role: 'user', content: message }, 'message')!.content as unknown[];
  } else throw new HttpError(400, 'invalid_interjection', 'message must be a non-empty string or an array of text, image and file parts');
  try {
    interjectionContent(checked as never);
  } catch (error) {
    throw interjectionHttpError(error);
  }
  return { message: checked, interjectionId: interjectionId as string | undefined, batchKey: batchKey as string | undefined, wait: wait !== false };
}

/**
 * Interjects into a run this isolate (or object) runs: the model's reply, or with `wait: false` the queued
 * interjection's id at once (its reply comes in the run's events). Errors become client answers.
 */
export async function interjectLocal(stream: RunStream, request: InterjectRequest, signal: AbortSignal): Promise<InterjectionReply | QueuedInterjection> {
  const interjectionId = request.interjectionId ?? (request.wait ? undefined : randomId());
  try {
    const reply = interject(stream, request.message as never, { interjectionId, batchKey: request.batchKey, ...(request.wait ? { signal } : {}) });
    if (!request.wait) {
      reply.catch(() => undefined);
      return { interjectionId: interjectionId!, state: 'queued' };
    }
    return await reply;
  } catch (error) {
    throw interjectionHttpError(error);
  }
}

/** Line breaks, other control characters and bidirectional overrides: refused in a client's cancel reason. */
const UNSAFE_REASON_CHARACTERS = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Parses the optional body of `POST /agents/:name/runs/:runId/cancel`,
 * `{"reason"?: "…"}` (1-500 characters on one line, no control characters),
 * into the message the run is cancelled with: "The run was cancelled:
 * <reason>", or "The run was cancelled" without a reason (`cancelledMessage`).
 * The client's text is untrusted: it only ever appears behind that prefix.
 */
export function parseCancelReason(body: Record<string, unknown> | undefined): string {
  const reason = body?.reason;
  if (reason === undefined) return cancelledMessage();
  if (typeof reason !== 'string' || reason.length === 0 || reason.length > MAX_CANCEL_REASON || UNSAFE_REASON_CHARACTERS.test(reason)) {
    throw new HttpError(400, 'invalid_reason', `reason must be a non-empty string of at most ${MAX_CANCEL_REASON} characters, on one line, without control characters`);
  }
  return cancelledMessage(reason);
}

/** Maps what `interject` throws to client answers: 409 when the run is not running, 429 at its capacity, 400 for bad input. */
export function interjectionHttpError(error: unknown): unknown {
  if (HttpError.isInstance(error)) return error;
  if (AgentInterjectionError.isInstance(error)) {
    return error.message === 'Agent interjection capacity reached' ? new HttpError(429, 'interjection_capacity', error.message) : new HttpError(409, 'not_running', error.message);
  }
  if (InvocationError.isInstance(error)) return new HttpError(400, 'invalid_interjection', error.message);
  return error;
}

/** The one answer for a run this actor may not see, whether it exists or not. */
export function unknownRun(): HttpError {
  return new HttpError(404, 'unknown_run', 'No such run');
}
