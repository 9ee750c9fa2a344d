import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOfflineDemoModel } from 'ghostlight/demo-model';

/** Which model the Worker uses and why. */
export interface ModelChoice {
  model: LanguageModel;
  /** A human-readable description, e.g. `openai:gpt-5-mini` or `offline demo model`. */
  label: string;
  offline: boolean;
}

/**
 * Picks the model from the Worker's environment: `OPENAI_API_KEY`, then
 * `ANTHROPIC_API_KEY`, then an OpenAI-compatible `OPENAI_BASE_URL` (e.g. a
 * local Ollama); otherwise Ghostlight's offline demo model.
 */
export function modelFromEnv(env: Record<string, unknown>): ModelChoice {
  const text = (key: string) => (typeof env[key] === 'string' && env[key] !== '' ? (env[key] as string) : undefined);
  const baseURL = text('OPENAI_BASE_URL');
  if (baseURL) {
    const modelId = text('OPENAI_MODEL') ?? 'llama3.2';
    const apiKey = text('OPENAI_API_KEY');
    const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL, ...(apiKey !== undefined ? { apiKey } : {}) });
    return { model: provider.chatModel(modelId), label: `openai-compatible:${modelId} at ${baseURL}`, offline: false };
  }
  const openaiKey = text('OPENAI_API_KEY');
  if (openaiKey) {
    const modelId = text('OPENAI_MODEL') ?? 'gpt-5-mini';
    return { model: createOpenAI({ apiKey: openaiKey })(modelId), label: `openai:${modelId}`, offline: false };
  }
  const anthropicKey = text('ANTHROPIC_API_KEY');
  if (anthropicKey) {
    const modelId = text('ANTHROPIC_MODEL') ?? 'claude-sonnet-4-5';
    return { model: createAnthropic({ apiKey: anthropicKey })(modelId), label: `anthropic:${modelId}`, offline: false };
  }
  return { model: createOfflineDemoModel(), label: 'offline demo model (no provider key configured)', offline: true };
}
