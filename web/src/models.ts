import type { LanguageModel } from 'ai';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import { defaultModelId } from './settings';
import type { Settings } from './settings';

/**
 * Builds the in-tab model from the settings. Provider packages load only
 * when chosen; requests go straight from this tab to the provider.
 */
export async function modelFor(settings: Settings, respond?: (request: DemoRequest) => DemoTurn): Promise<LanguageModel> {
  const modelId = settings.modelId || defaultModelId(settings.model);
  switch (settings.model) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: requireKey(settings) })(modelId);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: requireKey(settings), headers: { 'anthropic-dangerous-direct-browser-access': 'true' } })(modelId);
    }
    case 'compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'compatible', baseURL: settings.baseURL, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) }).chatModel(modelId);
    }
    default:
      return createOfflineDemoModel({ delayMs: 20, ...(respond ? { respond } : {}) });
  }
}

function requireKey(settings: Settings): string {
  if (!settings.apiKey) throw new Error(`Paste an API key for ${settings.model} first (it stays in this tab's sessionStorage).`);
  return settings.apiKey;
}
