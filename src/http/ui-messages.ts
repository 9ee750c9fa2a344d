import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserContent } from 'ai';
import { isPlainObject } from '../util/json.ts';
import { HttpError } from './http-error.ts';

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolResultPart = Extract<ToolModelMessage['content'][number], { type: 'tool-result' }>;

/**
 * Converts the earlier messages of a `useChat` request (AI SDK UI messages)
 * into model messages, as AI SDK's `convertToModelMessages` does with
 * `ignoreIncompleteToolCalls`, without its dependencies: user text and files;
 * assistant text, reasoning and tool calls, one assistant message (and one
 * tool message with the finished calls' results) per step; tool calls still
 * streaming or waiting are left out; system messages, sources and data parts
 * are dropped. Provider metadata is never carried over.
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
      converted.push(...assistantSteps(parts, field));
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

function assistantSteps(parts: readonly Record<string, unknown>[], field: string): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let content: AssistantPart[] = [];
  let results: ToolResultPart[] = [];
  const flush = () => {
    if (content.length > 0) messages.push({ role: 'assistant', content });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    content = [];
    results = [];
  };
  parts.forEach((part, index) => {
    const where = `${field}.parts[${index}]`;
    if (part.type === 'step-start') return flush();
    if (part.type === 'text') return void content.push({ type: 'text', text: string(part.text, `${where}.text`) });
    if (part.type === 'reasoning') return void content.push({ type: 'reasoning', text: string(part.text, `${where}.text`) });
    const type = part.type as string;
    const toolName = type === 'dynamic-tool' ? part.toolName : type.startsWith('tool-') ? type.slice(5) : undefined;
    if (toolName === undefined) return;
    if (part.state !== 'output-available' && part.state !== 'output-error') return;
    const name = identifier(toolName, `${where}.toolName`);
    const toolCallId = identifier(part.toolCallId, `${where}.toolCallId`);
    content.push({ type: 'tool-call', toolCallId, toolName: name, input: part.input ?? {} });
    results.push({
      type: 'tool-result',
      toolCallId,
      toolName: name,
      output:
        part.state === 'output-error'
          ? { type: 'error-text', value: string(part.errorText ?? 'Tool failed', `${where}.errorText`) }
          : typeof part.output === 'string'
            ? { type: 'text', value: part.output }
            : { type: 'json', value: (part.output ?? null) as never },
    });
  });
  flush();
  return messages;
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  return value;
}

function identifier(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) throw invalid(`${field} must be a non-empty string of at most 256 characters`);
  return value;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_message', message);
}
