import { convertToModelMessages } from 'ai';
import type { UIMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';
import { checkMessageCount, checkSessionId, checkText, clientUrl } from './run-request.ts';
import type { RequestLimits, RunRequest } from './run-request.ts';

/**
 * Parses the body `useChat`'s default transport sends: `{id, messages:
 * UIMessage[], trigger, messageId}`. The chat `id` is the session id; the
 * last message must be the user's; earlier messages become history through
 * AI SDK's `convertToModelMessages` (system messages dropped).
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
  const last = messages.at(-1) as UIMessage | undefined;
  if (!last || last.role !== 'user') throw new HttpError(400, 'invalid_input', 'The last message must be a user message');
  const earlier = (messages.slice(0, -1) as UIMessage[]).filter((message) => message.role !== 'system');
  let history;
  try {
    history = await convertToModelMessages(earlier, { ignoreIncompleteToolCalls: true });
  } catch {
    throw new HttpError(400, 'invalid_message', 'messages could not be read as a conversation');
  }
  return { input: userContent(last, limits), history, sessionId };
}

function userContent(message: UIMessage, limits: RequestLimits): string | UserContent {
  const parts: Exclude<UserContent, string> = [];
  for (const part of message.parts) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'file') parts.push({ type: 'file', data: clientUrl(part.url, 'A file part'), mediaType: part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) });
  }
  if (parts.length === 0) throw new HttpError(400, 'invalid_input', 'The user message has no text or file parts');
  if (parts.every((part) => part.type === 'text')) return checkText(parts.map((part) => part.text).join(''), 'The user message', limits);
  return parts;
}
