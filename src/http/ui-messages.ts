import type { ModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';

/**
 * Converts the earlier messages of a `useChat` request (AI SDK UI messages)
 * into model messages under the trust rule (docs/security.md): user text and
 * files; assistant text, one assistant message per UI message. The agent's
 * tool parts a client replays, reasoning, sources, data parts and system
 * messages are dropped, and provider metadata is never carried over.
 */
export function uiMessagesToModelMessages(messages: readonly unknown[], url: (text: string, field: string) => URL | string): ModelMessage[] {
  const converted: ModelMessage[] = [];
  messages.forEach((message, index) => {
    const field = `messages[${index}]`;
    if (!isPlainObject(message) || !Array.isArray(message.parts)) throw invalid(`${field} must be a UI message with role and parts`);
    const parts = message.parts.map((part, partIndex) => {
      if (!isPlainObject(part) || typeof part.type !== 'string') throw invalid(`${field}.parts[${partIndex}] must be a part with a type`);
      return part;
    });
    if (message.role === 'user') {
      const content = uiUserContent(parts, field, url);
      if (content.length > 0) converted.push({ role: 'user', content });
    } else if (message.role === 'assistant') {
      const content = parts.flatMap((part, partIndex) => (part.type === 'text' ? [{ type: 'text' as const, text: string(part.text, `${field}.parts[${partIndex}].text`) }] : []));
      if (content.length > 0) converted.push({ role: 'assistant', content });
    } else if (message.role !== 'system') {
      throw invalid(`${field}.role must be user, assistant or system`);
    }
  });
  return converted;
}

/** A UI user message's text and file parts as model content parts. */
export function uiUserContent(parts: readonly Record<string, unknown>[], field: string, url: (text: string, field: string) => URL | string): Exclude<UserContent, string> {
  const content: Exclude<UserContent, string> = [];
  parts.forEach((part, index) => {
    const where = `${field}.parts[${index}]`;
    if (part.type === 'text') content.push({ type: 'text', text: string(part.text, `${where}.text`) });
    else if (part.type === 'file') {
      content.push({
        type: 'file',
        data: url(string(part.url, `${where}.url`), `${where}.url`),
        mediaType: string(part.mediaType, `${where}.mediaType`),
        ...(part.filename === undefined ? {} : { filename: string(part.filename, `${where}.filename`) }),
      });
    }
  });
  return content;
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  return value;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_message', message);
}
