import type { AssistantModelMessage } from 'ai';
import type { ModelResponse } from './hooks.ts';
import type { ModelStepResult } from './model-step.ts';

/** A model turn as `afterModel` hooks see it. */
export function toModelResponse(step: ModelStepResult): ModelResponse {
  return {
    text: step.text,
    reasoning: step.reasoning,
    toolCalls: step.toolCalls,
    finishReason: step.finishReason,
    usage: step.usage,
    messages: step.responseMessages,
  };
}

/**
 * A replaced response as the loop uses it. A replacement that changed the text
 * or the tool calls but kept the original's `messages` gets an assistant
 * message rebuilt from them (the provider's continuity metadata cannot follow
 * changed content).
 */
export function fromModelResponse(replacement: ModelResponse, original: ModelResponse): ModelStepResult {
  const changed = replacement.text !== original.text || replacement.toolCalls !== original.toolCalls;
  const messages = replacement.messages === original.messages && changed ? rebuilt(replacement) : replacement.messages;
  return {
    text: replacement.text,
    reasoning: replacement.reasoning,
    toolCalls: [...replacement.toolCalls],
    finishReason: replacement.finishReason,
    usage: replacement.usage,
    responseMessages: [...messages],
  };
}

function rebuilt(response: ModelResponse): AssistantModelMessage[] {
  const content: Exclude<AssistantModelMessage['content'], string> = [];
  if (response.text.length > 0) content.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls) content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
  return content.length > 0 ? [{ role: 'assistant', content }] : [];
}
