import type { UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';
import { checkMessageCount, checkSessionId, checkText, clientUrl } from './run-request.ts';
import { uiMessagesToModelMessages, uiUserContent } from './ui-messages.ts';
import { uiApprovalAnswers } from './approval-requests.ts';
import type { RequestLimits, RunRequest } from './run-request.ts';

/**
 * Parses the body `useChat`'s default transport sends: `{id, messages:
 * UIMessage[], trigger, messageId}`. The chat `id` is the session id; the
 * last message must be the user's, or the assistant's with answered
 * approvals (then the waiting run of the session continues); earlier messages become history
 * (`uiMessagesToModelMessages`: system messages dropped, unfinished tool calls
 * left out, provider metadata never carried over), under the client-history
 * trust rule (the agent's tool calls and results that the client replays are
 * dropped).
 */
export async function parseUiChatRequest(body: Record<string, unknown>, limits: RequestLimits): Promise<RunRequest> {
  const sessionId = checkSessionId(body.id, 'id');
  const messages = checkMessageCount(body.messages, 'messages', limits);
  for (const [index, message] of messages.entries()) {
    if (!isPlainObject(message) || typeof message.role !== 'string' || !Array.isArray(message.parts)) {
      throw new HttpError(400, 'invalid_message', `messages[${index}] must be a UI message with role and parts`);
    }
    checkMessageCount(message.parts, `messages[${index}].parts`, limits);
  }
  const last = messages.at(-1) as { role: string; parts: Record<string, unknown>[] } | undefined;
  // The client answered approvals (addToolApprovalResponse): continue the waiting run from the session.
  const approvals = uiApprovalAnswers(last, limits);
  if (approvals) return { input: approvals, history: [], ...(sessionId === undefined ? {} : { sessionId }) };
  if (!last || last.role !== 'user') throw new HttpError(400, 'invalid_input', 'The last message must be a user message');
  const history = uiMessagesToModelMessages(messages.slice(0, -1), clientUrl);
  return { input: userContent(last.parts, `messages[${messages.length - 1}]`, limits), history, ...(sessionId === undefined ? {} : { sessionId }) };
}

function userContent(parts: Record<string, unknown>[], field: string, limits: RequestLimits): string | UserContent {
  const content = uiUserContent(parts, field, clientUrl);
  if (content.length === 0) throw new HttpError(400, 'invalid_input', 'The user message has no text or file parts');
  if (content.every((part) => part.type === 'text')) return checkText(content.map((part) => part.text).join(''), 'The user message', limits);
  return content;
}
