import type { Attributes as SpanAttributes } from '@opentelemetry/api';
import { redactSecrets } from '../instrumentation/content-capture.ts';
import type { Attributes } from '../instrumentation/instrumentation-subscriber.ts';
import { genAiMessages } from './gen-ai-messages.ts';

/** Ghostlight attribute names and their OpenTelemetry (GenAI semantic conventions) names. */
const NAMES: Readonly<Record<string, string>> = {
  agent: 'gen_ai.agent.name',
  sessionId: 'gen_ai.conversation.id',
  runId: 'ghostlight.run.id',
  model: 'gen_ai.request.model',
  provider: 'gen_ai.provider.name',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  temperature: 'gen_ai.request.temperature',
  maxOutputTokens: 'gen_ai.request.max_tokens',
  topP: 'gen_ai.request.top_p',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  caller: 'ghostlight.tool.caller',
  parentToolCallId: 'ghostlight.tool.parent_call_id',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  httpStatus: 'http.response.status_code',
  errorType: 'error.type',
};

/** Where captured content goes, by operation. */
const CONTENT: Readonly<Record<string, readonly [input: string, output: string]>> = {
  run: ['gen_ai.input.messages', 'gen_ai.output.messages'],
  agent: ['gen_ai.input.messages', 'gen_ai.output.messages'],
  model: ['gen_ai.input.messages', 'gen_ai.output.messages'],
  tool: ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'],
  code_program: ['ghostlight.code.source', 'ghostlight.code.result'],
};

const IGNORED = new Set(['totalTokens', 'input', 'output']);
const SENSITIVE_KEY = /authorization|api[_-]?key|credential|password|secret|(?:^|[_.-])token(?:$|[_-])|cookie|private[_-]?key/i;

/** Limits of attribute values. */
export interface AttributeLimits {
  /** Longest string value (content excepted: the agent's capture policy bounds it). */
  readonly maxLength: number;
  /** Extra attribute keys to redact. */
  readonly redactKeys: RegExp | undefined;
}

/** Ghostlight attributes as span attributes: GenAI names, usage totals, bounded and redacted values. */
export function spanAttributes(operation: string, attributes: Attributes, limits: AttributeLimits): SpanAttributes {
  const out: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || IGNORED.has(key)) continue;
    const name = NAMES[key] ?? (key === 'inputTokens' ? 'gen_ai.usage.input_tokens' : key === 'outputTokens' ? 'gen_ai.usage.output_tokens' : key === 'finishReason' ? 'gen_ai.response.finish_reasons' : `ghostlight.${snake(key)}`);
    if (SENSITIVE_KEY.test(snake(key)) || limits.redactKeys?.test(key)) {
      out[name] = '[REDACTED]';
      continue;
    }
    if (key === 'finishReason') out[name] = [String(value)];
    else if (key === 'provider') out[name] = String(value).split('.')[0]!;
    else out[name] = bounded(value, limits.maxLength);
  }
  const content = CONTENT[operation];
  const messages = operation === 'run' || operation === 'agent' || operation === 'model';
  if (content && typeof attributes.input === 'string') out[content[0]] = messages ? genAiMessages(attributes.input, 'user') : attributes.input;
  if (content && typeof attributes.output === 'string') out[content[1]] = messages ? genAiMessages(attributes.output, 'assistant') : attributes.output;
  return out;
}

function bounded(value: NonNullable<Attributes[string]>, maxLength: number): NonNullable<SpanAttributes[string]> {
  if (typeof value === 'string') return (redactSecrets(value) as string).slice(0, maxLength);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item.slice(0, maxLength) : item)) as string[];
  return value as number | boolean;
}

function snake(key: string): string {
  return key.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
}
