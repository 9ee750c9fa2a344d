import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage, ToolChoice, ToolSet } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import { OutputLimitError } from '../error/protocol-error.ts';
import type { EventPayload, FinishReason } from '../events/events.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { modelFacingIssues } from './model-facing-issues.ts';
import { resultLimitIssue } from './result-limits.ts';
import type { ResultSchema } from './result-schema.ts';
import { StructuredResultError } from './structured-result-error.ts';

/** The parts of a model turn the controller judges. */
export interface StructuredTurn {
  readonly text: string;
  readonly toolCalls: readonly ToolCallRequest[];
  readonly finishReason: FinishReason;
  readonly responseMessages: readonly ModelMessage[];
}

/** What the loop does after a turn. */
export type StructuredDecision =
  | { readonly kind: 'continue' }
  | { readonly kind: 'complete'; readonly value: unknown; readonly messages: ModelMessage[] }
  | { readonly kind: 'repair'; readonly messages: ModelMessage[] };

/** The terminal tool of the `tool` strategy, as the model sees it. */
export interface TerminalTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

const DEFAULT_TOOL_DESCRIPTION = 'Submit the final structured result. Call this tool only as the final action.';
const REPAIR_SUFFIX = 'You have one repair attempt. The previous structured result was invalid.';
const INVALID_JSON = 'Structured result is not valid JSON';
const INVALID_TOOL_RESULT = 'The structured result was invalid. Submit it again using the required schema.';

/**
 * The structured-result state machine of one run. The loop asks it how to
 * shape each request (response format, terminal tool, tool choice), which
 * turns are terminal (their payload is redacted from events and history), and
 * after each turn whether to continue, complete with the checked value, or
 * repair: a missing or invalid result gets exactly one repair turn, and a
 * second failure is a `StructuredResultError`.
 */
export class StructuredResultController {
  readonly schema: ResultSchema;
  readonly strategy: 'provider' | 'tool';
  #repairing = false;

  constructor(schema: ResultSchema, strategy: 'provider' | 'tool') {
    this.schema = schema;
    this.strategy = strategy;
  }

  /** Whether the repair turn is under way. */
  get repairing(): boolean {
    return this.#repairing;
  }

  /** The text that replaces a structured payload: `[Structured result NAME redacted]`. */
  get marker(): string {
    return `[Structured result ${this.schema.name} redacted]`;
  }

  /** The provider response format (`provider` strategy): JSON matching the schema. */
  responseFormat(): LanguageModelV4CallOptions['responseFormat'] {
    if (this.strategy !== 'provider') return undefined;
    const { jsonSchema, name, description } = this.schema;
    return { type: 'json', schema: jsonSchema as never, name, ...(description ? { description } : {}) };
  }

  /** The terminal tool (`tool` strategy). */
  terminalTool(): TerminalTool | undefined {
    if (this.strategy !== 'tool') return undefined;
    return { name: this.schema.name, description: this.schema.description ?? DEFAULT_TOOL_DESCRIPTION, inputSchema: this.schema.jsonSchema };
  }

  /** The tool choice: `required`, and the result tool itself during repair (`tool` strategy). */
  toolChoice(): ToolChoice<ToolSet> | undefined {
    if (this.strategy !== 'tool') return undefined;
    return this.#repairing ? { type: 'tool', toolName: this.schema.name } : 'required';
  }

  /** Rejects an ordinary model-facing tool with the result tool's name. */
  assertNoCollision(tools: readonly Tool[]): void {
    if (this.strategy === 'tool' && tools.some((tool) => tool.name === this.schema.name)) {
      throw new ConfigurationError(`Structured result tool name collides with an agent tool: ${this.schema.name}`);
    }
  }

  /** Whether `turn` carries (or should have carried) the structured payload. */
  isTerminal(turn: Pick<StructuredTurn, 'toolCalls'>): boolean {
    if (this.#repairing || turn.toolCalls.length === 0) return true;
    return this.strategy === 'tool' && turn.toolCalls.some((call) => call.toolName === this.schema.name);
  }

  /** The events of a terminal turn without its payload: no deltas, empty tool inputs, the marker as message text. */
  redactEvents(events: readonly EventPayload[]): EventPayload[] {
    const redacted: EventPayload[] = [];
    for (const event of events) {
      if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-call-delta') continue;
      if (event.type === 'message-stop') redacted.push({ ...event, text: this.marker });
      else if (event.type === 'tool-call-stop') redacted.push({ ...event, input: {} });
      else redacted.push(event);
    }
    return redacted;
  }

  /** Judges a finished turn. Throws `OutputLimitError` or `StructuredResultError` when the run must fail. */
  async conclude(turn: StructuredTurn): Promise<StructuredDecision> {
    const resultCalls = this.strategy === 'tool' ? turn.toolCalls.filter((call) => call.toolName === this.schema.name) : [];
    if (resultCalls.length > 0) {
      const issues =
        resultCalls.length > 1
          ? ['The model called the structured result tool more than once']
          : turn.toolCalls.length > 1
            ? ['The structured result tool must be the only tool call in its response']
            : undefined;
      const call = resultCalls[0]!;
      const checked = issues ? { issues } : call.invalidJson ? { issues: [INVALID_JSON] } : await this.#capture(call.input);
      if ('value' in checked) return { kind: 'complete', value: checked.value, messages: [this.#markerMessage()] };
      this.#failIfRepairing(checked.issues);
      this.#repairing = true;
      const content = `${INVALID_TOOL_RESULT}${this.#issueText(checked.issues)}`;
      return { kind: 'repair', messages: [this.#redactedCallsMessage(turn), errorResults(turn.toolCalls, content)] };
    }
    if (turn.toolCalls.length === 0) {
      if (turn.finishReason === 'length') throw new OutputLimitError();
      const checked = this.strategy === 'provider' ? await this.#captureText(turn.text) : { issues: ['The structured result tool was not called'] };
      if ('value' in checked) return { kind: 'complete', value: checked.value, messages: [this.#markerMessage()] };
      this.#failIfRepairing(checked.issues);
      this.#repairing = true;
      const requirement =
        this.strategy === 'tool'
          ? `Call ${this.schema.name} exactly once as your only tool call.`
          : 'Your final response must be JSON matching the configured output schema.';
      const repair: ModelMessage = { role: 'user', content: `${requirement} ${REPAIR_SUFFIX}${this.#issueText(checked.issues)}` };
      return { kind: 'repair', messages: [this.#markerMessage(), repair] };
    }
    if (this.#repairing) {
      throw this.#error('The model did not return a structured result after its repair turn', ['The structured result was not returned']);
    }
    return { kind: 'continue' };
  }

  /** The failure when the run runs out of turns before a valid result. */
  turnLimitError(): StructuredResultError {
    return this.#repairing
      ? this.#error('The agent reached its model turn limit before it could repair the structured result', ['repair turn unavailable'])
      : this.#error('The agent reached its model turn limit before returning a structured result', ['structured result was not submitted']);
  }

  async #captureText(text: string): Promise<{ value: unknown } | { issues: string[] }> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { issues: [INVALID_JSON] };
    }
    return this.#capture(value);
  }

  async #capture(value: unknown): Promise<{ value: unknown } | { issues: string[] }> {
    const limit = resultLimitIssue(value);
    if (limit) return { issues: [limit] };
    const checked = await this.schema.check(value);
    return checked.success ? { value: checked.value } : { issues: checked.issues };
  }

  #failIfRepairing(issues: readonly string[]): void {
    if (this.#repairing) throw this.#error('The model did not return a valid structured result after its repair turn', issues);
  }

  #error(message: string, validationErrors: readonly string[]): StructuredResultError {
    return new StructuredResultError(message, { schemaName: this.schema.name, validationErrors });
  }

  #issueText(issues: readonly string[]): string {
    const safe = modelFacingIssues(issues, this.schema.declaredNames);
    return safe.length > 0 ? ` Problems: ${safe.join('; ')}.` : '';
  }

  #markerMessage(): ModelMessage {
    return { role: 'assistant', content: [{ type: 'text', text: this.marker }] };
  }

  #redactedCallsMessage(turn: StructuredTurn): ModelMessage {
    const providerOptions = new Map<string, unknown>();
    for (const message of turn.responseMessages) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call' && part.providerOptions) providerOptions.set(part.toolCallId, part.providerOptions);
      }
    }
    return {
      role: 'assistant',
      content: turn.toolCalls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: {},
        ...(providerOptions.has(call.toolCallId) ? { providerOptions: providerOptions.get(call.toolCallId) as never } : {}),
      })),
    };
  }
}

function errorResults(calls: readonly ToolCallRequest[], content: string): ModelMessage {
  return {
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'error-text' as const, value: content },
    })),
  };
}
