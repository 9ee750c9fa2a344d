import type { ModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';

type UserPart = Exclude<UserContent, string>[number];

/**
 * Reads one client-supplied model message (AI SDK's `ModelMessage` JSON) into
 * a fresh object that holds only what Ghostlight accepts from clients (the
 * trust rule, docs/security.md): user text, images and files, and assistant
 * text. Tool calls, tool results and reasoning are the server's and the
 * provider's, never the client's: they are checked for shape and dropped (a
 * message left empty is `undefined`). System messages are refused
 * (instructions come from the agent) and `providerOptions` are never copied,
 * so a client can never steer the provider through history. Anything else is
 * a 400 `invalid_message` naming the field.
 */
export function readClientMessage(value: unknown, field: string, url: (text: string, field: string) => URL | string): ModelMessage | undefined {
  if (!isPlainObject(value)) throw invalid(`${field} must be an object`);
  switch (value.role) {
    case 'user':
      return { role: 'user', content: readUserContent(value.content, `${field}.content`, url) };
    case 'assistant': {
      const content = readAssistantText(value.content, `${field}.content`);
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'tool':
      partsOf(value.content, `${field}.content`).forEach((part, index) => {
        if (part.type !== 'tool-result') throw invalid(`${field}.content[${index}].type must be tool-result`);
      });
      return undefined;
    case 'system':
      throw invalid(`${field}: system messages are not accepted from clients`);
    default:
      throw invalid(`${field}.role must be user, assistant or tool`);
  }
}

/** User content: text, or parts (text, image, file). */
export function readUserContent(content: unknown, field: string, url: (text: string, field: string) => URL | string): string | UserContent {
  if (typeof content === 'string') return content;
  const parts = partsOf(content, field);
  return parts.map((part, index): UserPart => {
    const where = `${field}[${index}]`;
    switch (part.type) {
      case 'text':
        return { type: 'text', text: text(part.text, `${where}.text`) };
      case 'image':
        return { type: 'image', image: media(part.image, `${where}.image`, url), ...optionalText(part, 'mediaType', where) };
      case 'file':
        return {
          type: 'file',
          data: media(part.data, `${where}.data`, url),
          mediaType: text(part.mediaType, `${where}.mediaType`),
          ...optionalText(part, 'filename', where),
        };
      default:
        throw invalid(`${where}.type must be text, image or file`);
    }
  });
}

/** The assistant's text; reasoning and tool-call parts are checked for type and dropped. */
function readAssistantText(content: unknown, field: string): string | Array<{ type: 'text'; text: string }> {
  if (typeof content === 'string') return content;
  const kept: Array<{ type: 'text'; text: string }> = [];
  partsOf(content, field).forEach((part, index) => {
    const where = `${field}[${index}]`;
    if (part.type === 'text') kept.push({ type: 'text', text: text(part.text, `${where}.text`) });
    else if (part.type !== 'reasoning' && part.type !== 'tool-call') throw invalid(`${where}.type must be text, reasoning or tool-call`);
  });
  return kept;
}

function partsOf(content: unknown, field: string): Record<string, unknown>[] {
  if (!Array.isArray(content)) throw invalid(`${field} must be text or an array of parts`);
  return content.map((part, index) => {
    if (!isPlainObject(part) || typeof part.type !== 'string') throw invalid(`${field}[${index}] must be a part with a type`);
    return part;
  });
}

function media(value: unknown, field: string, url: (text: string, field: string) => URL | string): string | URL {
  if (typeof value !== 'string' || value.length === 0) throw invalid(`${field} must be a URL or base64 text`);
  return /^[a-z][a-z0-9+.-]*:/i.test(value) ? url(value, field) : value;
}

function optionalText(part: Record<string, unknown>, key: 'mediaType' | 'filename', where: string): Record<string, string> {
  return part[key] === undefined ? {} : { [key]: text(part[key], `${where}.${key}`) };
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  return value;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_message', message);
}
