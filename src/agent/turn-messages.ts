import type { ModelMessage } from 'ai';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { Step } from './step.ts';

/** The transient user message that shows tool-result media (artifact images and documents) to the model. */
export function presentationMessage(results: readonly ToolCallResult[]): ModelMessage | undefined {
  const media = results.flatMap((result) => result.presentation ?? []);
  return media.length > 0 ? { role: 'user', content: media, providerOptions: { ghostlight: { transient: true } } } : undefined;
}

/** A terminal structured turn as the run records it: the payload replaced by the marker. */
export function redactedStep(step: Step, marker: string): Step {
  return { ...step, text: marker, reasoning: '', toolCalls: step.toolCalls.map((call) => ({ ...call, input: {} })) };
}

/** The tool message for the model: results in request order, under the names the model called (aliases, not registry ids). */
export function toolMessage(calls: readonly ToolCallRequest[], results: readonly ToolCallResult[]): ModelMessage {
  return {
    role: 'tool',
    content: results.map((result, index) => ({
      type: 'tool-result' as const,
      toolCallId: result.toolCallId,
      toolName: calls[index]?.toolName ?? result.toolName,
      output:
        result.status === 'error'
          ? { type: 'error-text' as const, value: result.content }
          : { type: 'text' as const, value: result.content },
    })),
  };
}
