import type { ModelMessage } from 'ai';
import type { AgentInput, ApprovalResponse } from '../agent/invocation.ts';
import { readClientMessage } from './client-messages.ts';
import { HttpError } from './http-error.ts';

/** What a request asks a run to do, whatever protocol it came in. */
export interface RunRequest {
  /** What to ask, or the approval answers that continue a waiting run of the session. */
  readonly input: AgentInput | ApprovalResponse;
  readonly history: readonly ModelMessage[];
  readonly sessionId?: string | undefined;
}

/** Resolved request limits. */
export interface RequestLimits {
  readonly maxBodyBytes: number;
  readonly maxMessages: number;
  readonly maxInputChars: number;
  readonly maxJsonDepth: number;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** Checks a client-chosen session id. */
export function checkSessionId(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !SESSION_ID.test(value)) {
    throw new HttpError(400, 'invalid_session_id', `${field} must be 1-128 characters: letters, digits and _ . : @ - (starting with a letter or digit)`);
  }
  return value;
}

/** Refuses message arrays over the limit before looking at their contents. */
export function checkMessageCount(messages: unknown, field: string, limits: RequestLimits): unknown[] {
  if (messages === undefined) return [];
  if (!Array.isArray(messages)) throw new HttpError(400, 'invalid_messages', `${field} must be an array`);
  if (messages.length > limits.maxMessages) {
    throw new HttpError(413, 'too_many_messages', `${field} has ${messages.length} messages; at most ${limits.maxMessages} are allowed`);
  }
  return messages;
}

/** Checks text input length. */
export function checkText(text: string, field: string, limits: RequestLimits): string {
  if (text.length === 0) throw new HttpError(400, 'invalid_input', `${field} must not be empty`);
  if (text.length > limits.maxInputChars) {
    throw new HttpError(413, 'input_too_long', `${field} has ${text.length} characters; at most ${limits.maxInputChars} are allowed`);
  }
  return text;
}

/**
 * Parses `POST /agents/:name/runs`: `{"input": "…" | [parts], "sessionId"?,
 * "history"?: ModelMessage[]}`. History may not contain system messages:
 * instructions come from the agent, never from the client.
 */
export function parseRunRequest(body: Record<string, unknown>, limits: RequestLimits): RunRequest {
  const sessionId = checkSessionId(body.sessionId, 'sessionId');
  const history = checkMessageCount(body.history, 'history', limits).flatMap((message, index) => checkModelMessage(message, `history[${index}]`) ?? []);
  const input = body.input;
  if (typeof input === 'string') return { input: checkText(input, 'input', limits), history, sessionId };
  if (Array.isArray(input)) {
    checkMessageCount(input, 'input', limits);
    const message = checkModelMessage({ role: 'user', content: input }, 'input')!;
    if (input.length === 0) throw new HttpError(400, 'invalid_input', 'input must not be empty');
    return { input: message.content as AgentInput, history, sessionId };
  }
  throw new HttpError(400, 'invalid_input', 'input must be a non-empty string or an array of user content parts');
}

/** Reads one client-supplied model message under the trust rule (see `readClientMessage`); undefined when nothing of it is kept. */
export function checkModelMessage(value: unknown, field: string): ModelMessage | undefined {
  return readClientMessage(value, field, clientUrl);
}

/**
 * Parses a URL from client input: only `https:`, `http:` and `data:` URLs are
 * accepted (400 otherwise). Accepting one never makes the server fetch it:
 * whether a file URL is downloaded is the agent's `downloads` policy.
 */
export function clientUrl(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HttpError(400, 'invalid_message', `${field} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'data:') {
    throw new HttpError(400, 'invalid_message', `${field} must be an https, http or data URL (got ${JSON.stringify(url.protocol.slice(0, 32))})`);
  }
  return url;
}
