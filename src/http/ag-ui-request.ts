import type { ModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';
import { checkMessageCount, checkSessionId, checkText, clientUrl } from './run-request.ts';
import type { RequestLimits, RunRequest } from './run-request.ts';

/** An AG-UI request turned into a run request, with the ids its events must carry. */
export interface AgUiRunRequest extends RunRequest {
  readonly threadId: string;
  readonly runId: string;
}

/**
 * Parses an AG-UI `RunAgentInput`: the last message must be the user's new
 * message; earlier user, assistant (with tool calls) and tool messages become
 * history; system, developer, reasoning and activity messages are dropped
 * (instructions come from the agent). `threadId` is the session id.
 * Frontend `tools`, `context`, `state` and `forwardedProps` are not used.
 */
export function parseAgUiRequest(body: Record<string, unknown>, limits: RequestLimits): AgUiRunRequest {
  const threadId = checkSessionId(body.threadId, 'threadId');
  if (!threadId) throw new HttpError(400, 'invalid_input', 'threadId is required');
  const runId = body.runId;
  if (typeof runId !== 'string' || runId.length === 0 || runId.length > 200) throw new HttpError(400, 'invalid_input', 'runId must be a non-empty string');
  const messages = checkMessageCount(body.messages, 'messages', limits);
  const last = messages.at(-1);
  if (!isPlainObject(last) || last.role !== 'user') throw new HttpError(400, 'invalid_input', 'The last message must be a user message');
  const toolNames = new Map<string, string>();
  const history: ModelMessage[] = [];
  messages.slice(0, -1).forEach((message, index) => {
    const converted = convertMessage(message, `messages[${index}]`, toolNames, limits);
    if (converted) history.push(converted);
  });
  return { input: userContent(last.content, `messages[${messages.length - 1}]`, limits), history, sessionId: threadId, threadId, runId };
}

function convertMessage(message: unknown, field: string, toolNames: Map<string, string>, limits: RequestLimits): ModelMessage | undefined {
  if (!isPlainObject(message)) throw new HttpError(400, 'invalid_message', `${field} must be an object`);
  switch (message.role) {
    case 'user':
      return { role: 'user', content: userContent(message.content, field, limits) };
    case 'assistant': {
      const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
      if (typeof message.content === 'string' && message.content.length > 0) content.push({ type: 'text', text: message.content });
      const calls = message.toolCalls === undefined ? [] : message.toolCalls;
      if (!Array.isArray(calls)) throw new HttpError(400, 'invalid_message', `${field}.toolCalls must be an array`);
      for (const call of calls) {
        const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
        if (!isPlainObject(call) || typeof call.id !== 'string' || !fn || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
          throw new HttpError(400, 'invalid_message', `${field}.toolCalls has an invalid tool call`);
        }
        toolNames.set(call.id, fn.name);
        content.push({ type: 'tool-call', toolCallId: call.id, toolName: fn.name, input: parseArguments(fn.arguments) });
      }
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'tool': {
      if (typeof message.toolCallId !== 'string') throw new HttpError(400, 'invalid_message', `${field}.toolCallId must be a string`);
      const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
      return {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: message.toolCallId, toolName: toolNames.get(message.toolCallId) ?? 'unknown', output: { type: 'text', value: text } }],
      };
    }
    case 'system':
    case 'developer':
    case 'reasoning':
    case 'activity':
      return undefined;
    default:
      throw new HttpError(400, 'invalid_message', `${field}.role is not an AG-UI message role`);
  }
}

function userContent(content: unknown, field: string, limits: RequestLimits): string | UserContent {
  if (typeof content === 'string') return checkText(content, `${field}.content`, limits);
  if (!Array.isArray(content) || content.length === 0) throw new HttpError(400, 'invalid_message', `${field}.content must be text or content parts`);
  checkMessageCount(content, `${field}.content`, limits);
  const parts: Exclude<UserContent, string> = [];
  for (const part of content) {
    if (!isPlainObject(part)) throw new HttpError(400, 'invalid_message', `${field}.content has an invalid part`);
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (isPlainObject(part.source) && typeof part.source.value === 'string' && typeof part.source.mimeType === 'string') {
      const data = part.source.type === 'url' ? clientUrl(part.source.value, `${field}.content`) : part.source.value;
      parts.push(part.type === 'image' ? { type: 'image', image: data, mediaType: part.source.mimeType } : { type: 'file', data, mediaType: part.source.mimeType });
    } else throw new HttpError(400, 'invalid_message', `${field}.content has a part Ghostlight cannot read`);
  }
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  if (text.length > limits.maxInputChars) checkText(text, `${field}.content`, limits);
  return parts;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
