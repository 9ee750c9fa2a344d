import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';

type UserPart = Exclude<UserContent, string>[number];
type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolResultPart = Extract<ToolModelMessage['content'][number], { type: 'tool-result' }>;
type ToolOutput = ToolResultPart['output'];

/**
 * Reads one client-supplied model message (AI SDK's `ModelMessage` JSON) into
 * a fresh object that holds only what Ghostlight accepts from clients: user
 * text, images and files; assistant text, reasoning text and tool calls; tool
 * results as text or JSON. System messages are refused (instructions come
 * from the agent) and `providerOptions` are dropped wherever they appear, so
 * a client can never steer the provider through history. Anything else is a
 * 400 `invalid_message` naming the field.
 */
export function readClientMessage(value: unknown, field: string, url: (text: string, field: string) => URL | string): ModelMessage {
  if (!isPlainObject(value)) throw invalid(`${field} must be an object`);
  switch (value.role) {
    case 'user':
      return { role: 'user', content: readUserContent(value.content, `${field}.content`, url) };
    case 'assistant':
      return { role: 'assistant', content: readAssistantContent(value.content, `${field}.content`) };
    case 'tool':
      return { role: 'tool', content: readToolContent(value.content, `${field}.content`) };
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

function readAssistantContent(content: unknown, field: string): string | AssistantPart[] {
  if (typeof content === 'string') return content;
  return partsOf(content, field).map((part, index): AssistantPart => {
    const where = `${field}[${index}]`;
    switch (part.type) {
      case 'text':
        return { type: 'text', text: text(part.text, `${where}.text`) };
      case 'reasoning':
        return { type: 'reasoning', text: text(part.text, `${where}.text`) };
      case 'tool-call':
        return { type: 'tool-call', toolCallId: id(part.toolCallId, `${where}.toolCallId`), toolName: id(part.toolName, `${where}.toolName`), input: part.input ?? {} };
      default:
        throw invalid(`${where}.type must be text, reasoning or tool-call`);
    }
  });
}

function readToolContent(content: unknown, field: string): ToolResultPart[] {
  return partsOf(content, field).map((part, index): ToolResultPart => {
    const where = `${field}[${index}]`;
    if (part.type !== 'tool-result') throw invalid(`${where}.type must be tool-result`);
    return {
      type: 'tool-result',
      toolCallId: id(part.toolCallId, `${where}.toolCallId`),
      toolName: id(part.toolName, `${where}.toolName`),
      output: readToolOutput(part.output, `${where}.output`),
    };
  });
}

/** A tool result's output: `text`, `json`, `error-text` or `error-json` (content outputs are not accepted from clients). */
export function readToolOutput(output: unknown, field: string): ToolOutput {
  if (!isPlainObject(output)) throw invalid(`${field} must be an object`);
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { type: output.type, value: text(output.value, `${field}.value`) };
    case 'json':
    case 'error-json':
      return { type: output.type, value: (output.value ?? null) as never };
    default:
      throw invalid(`${field}.type must be text, json, error-text or error-json`);
  }
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

function id(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) throw invalid(`${field} must be a non-empty string of at most 256 characters`);
  return value;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_message', message);
}
