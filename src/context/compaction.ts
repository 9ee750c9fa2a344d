import type { ModelMessage } from 'ai';
import { ProtocolError } from '../error/protocol-error.ts';
import type { ContextSettings } from './context-options.ts';

/** The instructions of the summary call (LittleGhost's SUMMARIZATION_PROMPT). */
export const SUMMARIZATION_PROMPT = `You are a conversation summarizer. Provide a concise summary of the conversation history.

Format requirements:
- Create a structured, concise summary in bullet-point format.
- Do not respond conversationally, address the user directly, or comment on tool availability.
- Preserve key topics, questions, significant tool executions and results, code or technical information, and key insights.
- Do not assume tool executions failed unless otherwise stated.
- Write the summary in the third person.
`;

/** How a conversation splits for compaction. */
export interface CompactionPlan {
  /** System (and developer) messages: always kept, in front. */
  readonly trusted: readonly ModelMessage[];
  /** The oldest conversation messages, to summarise. */
  readonly summarized: readonly ModelMessage[];
  /** The rest, kept as they are. */
  readonly kept: readonly ModelMessage[];
}

/**
 * Splits the conversation: system messages are kept; of the others the first
 * `max(floor(n × summaryRatio), 1)` are summarised, capped so that
 * `preserveRecentMessages` remain (none left → `ProtocolError` "Not enough
 * conversation history to compact"), and the split moves forward past any
 * tool result or after any tool call so a call is never parted from its result.
 */
export function planCompaction(messages: readonly ModelMessage[], settings: ContextSettings): CompactionPlan {
  const trusted = messages.filter(isTrusted);
  const conversation = messages.filter((message) => !isTrusted(message));
  let split = Math.max(Math.floor(conversation.length * settings.summaryRatio), 1);
  split = Math.min(split, conversation.length - settings.preserveRecentMessages);
  if (split <= 0) throw new ProtocolError('Not enough conversation history to compact');
  while (split < conversation.length && (hasToolResults(conversation[split]!) || hasToolCalls(conversation[split - 1]!))) split++;
  return { trusted, summarized: conversation.slice(0, split), kept: conversation.slice(split) };
}

/** The summary message that replaces the summarised messages: a user message with the model's summary. */
export function summaryMessage(summary: string): ModelMessage {
  return { role: 'user', content: summary, providerOptions: { ghostlight: { contextSummary: true } } };
}

/**
 * The messages to summarise as one transcript for the summary call: roles,
 * text, tool calls with their arguments and tool results as text (so no
 * provider needs tool definitions to read them), media as placeholders.
 */
export function transcriptOf(messages: readonly ModelMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    const role = message.role === 'user' ? 'User' : message.role === 'assistant' ? 'Assistant' : message.role === 'tool' ? 'Tool' : 'System';
    if (typeof message.content === 'string') {
      lines.push(`${role}: ${message.content}`);
      continue;
    }
    for (const part of message.content as ReadonlyArray<Record<string, unknown>>) {
      switch (part.type) {
        case 'text':
          lines.push(`${role}: ${String(part.text)}`);
          break;
        case 'tool-call':
          lines.push(`${role} called ${String(part.toolName)} with ${json(part.input)}`);
          break;
        case 'tool-result':
          lines.push(`Tool ${String(part.toolName)} returned: ${outputText(part.output)}`);
          break;
        case 'image':
        case 'file':
          lines.push(`${role}: [${String(part.mediaType ?? part.type)}${part.filename ? ` ${String(part.filename)}` : ''}]`);
          break;
        default:
          break;
      }
    }
  }
  return lines.join('\n\n');
}

function isTrusted(message: ModelMessage): boolean {
  return message.role === 'system' || (message.role as string) === 'developer';
}

function hasToolResults(message: ModelMessage): boolean {
  return Array.isArray(message.content) && (message.content as Array<{ type: string }>).some((part) => part.type === 'tool-result');
}

function hasToolCalls(message: ModelMessage): boolean {
  return Array.isArray(message.content) && (message.content as Array<{ type: string }>).some((part) => part.type === 'tool-call');
}

function outputText(output: unknown): string {
  if (typeof output !== 'object' || output === null) return json(output);
  const { type, value } = output as { type?: string; value?: unknown };
  if (type === 'text' || type === 'error-text') return `${type === 'error-text' ? '(error) ' : ''}${String(value)}`;
  if (type === 'json' || type === 'error-json') return `${type === 'error-json' ? '(error) ' : ''}${json(value)}`;
  if (type === 'content' && Array.isArray(value)) {
    return value.map((item: { type?: string; text?: string }) => (item.type === 'text' ? item.text ?? '' : `[${item.type ?? 'content'}]`)).join(' ');
  }
  return json(value ?? output);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
