import type { FinishReason } from '../events/events.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { Usage } from './usage.ts';

/** One model turn of a run and the tool calls it led to. */
export interface Step {
  /** The turn number, from 1. */
  readonly turn: number;
  /** The assistant text of this turn. */
  readonly text: string;
  /** The reasoning text, when the provider exposed it. */
  readonly reasoning: string;
  /** The tool calls the model asked for, in request order. */
  readonly toolCalls: readonly ToolCallRequest[];
  /** Their results, in request order. */
  readonly toolResults: readonly ToolCallResult[];
  /** Why the model stopped. */
  readonly finishReason: FinishReason;
  /** Tokens used by this turn. */
  readonly usage: Usage;
}
