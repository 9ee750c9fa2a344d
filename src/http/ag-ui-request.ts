import type { ModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { checkClientJson } from './client-json.ts';
import { HttpError } from './http-error.ts';
import { agUiApprovalAnswers } from './approval-requests.ts';
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
 * history under the client-history trust rule (docs/security.md: tool calls
 * and results are kept only for the client's own frontend `tools`); system,
 * developer, reasoning and activity messages are dropped (instructions come
 * from the agent). `threadId` is the session id. `context`, `state` and
 * `forwardedProps` are not used.
 */
export function parseAgUiRequest(body: Record<string, unknown>, limits: RequestLimits): AgUiRunRequest {
  const threadId = checkSessionId(body.threadId, 'threadId');
  if (!threadId) throw new HttpError(400, 'invalid_input', 'threadId is required');
  const runId = body.runId;
  if (typeof runId !== 'string' || runId.length === 0 || runId.length > 200) throw new HttpError(400, 'invalid_input', 'runId must be a non-empty string');
  const messages = checkMessageCount(body.messages, 'messages', limits);
  // RunAgentInput.resume answers the interrupts of a waiting run (approvals): it continues from the session.
  const approvals = agUiApprovalAnswers(body.resume, limits);
  if (approvals) return { input: approvals, history: [], sessionId: threadId, threadId, runId };
  const last = messages.at(-1);
  if (!isPlainObject(last) || last.role !== 'user') throw new HttpError(400, 'invalid_input', 'The last message must be a user message');
  const calls: ToolCalls = { frontend: frontendToolNames(body.tools), seen: new Map() };
  const history: ModelMessage[] = [];
  messages.slice(0, -1).forEach((message, index) => {
    const converted = convertMessage(message, `messages[${index}]`, calls, limits);
    if (converted) history.push(converted);
  });
  for (const [id, call] of calls.seen) if (call?.answered === false) throw invalid(`messages: the tool call ${JSON.stringify(id)} has no result`);
  return { input: userContent(last.content, `messages[${messages.length - 1}]`, limits), history, sessionId: threadId, threadId, runId };
}

/** The names of the client's frontend tools (AG-UI `tools`); only their calls and results are kept from history. */
function frontendToolNames(tools: unknown): ReadonlySet<string> {
  if (tools === undefined || tools === null) return new Set();
  if (!Array.isArray(tools)) throw new HttpError(400, 'invalid_body', 'tools must be an array');
  return new Set(tools.map((tool, index) => {
    if (!isPlainObject(tool) || typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > 256) {
      throw new HttpError(400, 'invalid_body', `tools[${index}] must be a tool with a name`);
    }
    return tool.name;
  }));
}

/**
 * The trust rule's bookkeeping (docs/security.md): calls of the client's
 * frontend tools are kept (`{ name, answered }`), any other call is dropped
 * (`null`) with its result; a result for a call not seen, a call answered
 * twice, or a kept call without a result is a 400.
 */
interface ToolCalls {
  readonly frontend: ReadonlySet<string>;
  readonly seen: Map<string, { name: string; answered: boolean } | null>;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_message', message);
}

function convertMessage(message: unknown, field: string, calls: ToolCalls, limits: RequestLimits): ModelMessage | undefined {
  if (!isPlainObject(message)) throw new HttpError(400, 'invalid_message', `${field} must be an object`);
  switch (message.role) {
    case 'user':
      return { role: 'user', content: userContent(message.content, field, limits) };
    case 'assistant': {
      const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
      if (typeof message.content === 'string' && message.content.length > 0) content.push({ type: 'text', text: message.content });
      const toolCalls = message.toolCalls === undefined ? [] : message.toolCalls;
      if (!Array.isArray(toolCalls)) throw invalid(`${field}.toolCalls must be an array`);
      for (const call of toolCalls) {
        const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
        if (!isPlainObject(call) || typeof call.id !== 'string' || !fn || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
          throw invalid(`${field}.toolCalls has an invalid tool call`);
        }
        if (calls.seen.has(call.id)) throw invalid(`${field} repeats the tool call id ${JSON.stringify(call.id)}`);
        const kept = calls.frontend.has(fn.name);
        calls.seen.set(call.id, kept ? { name: fn.name, answered: false } : null);
        if (kept) content.push({ type: 'tool-call', toolCallId: call.id, toolName: fn.name, input: parseArguments(fn.arguments, `${field}.toolCalls`, limits) });
      }
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'tool': {
      const id = message.toolCallId;
      if (typeof id !== 'string') throw invalid(`${field}.toolCallId must be a string`);
      const call = calls.seen.get(id);
      if (call === undefined) throw invalid(`${field} has a tool result for ${JSON.stringify(id)}, which no earlier tool call made`);
      if (call === null) return undefined;
      if (call.answered) throw invalid(`${field} answers the tool call ${JSON.stringify(id)} twice`);
      call.answered = true;
      const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: call.name, output: { type: 'text', value: text } }] };
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

/** Tool arguments sent as JSON text: parsed, then held to the same depth bound as the body (their characters were counted with it). */
function parseArguments(text: string, field: string, limits: RequestLimits): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  checkClientJson(value, `${field} arguments`, { maxJsonDepth: limits.maxJsonDepth, maxInputChars: Number.POSITIVE_INFINITY });
  return value;
}
