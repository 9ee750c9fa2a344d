import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { createOfflineDemoModel } from '../demo-model/offline-demo-model.ts';
import { modelCapabilities, modelIdentity } from './model-capabilities.ts';

describe('modelCapabilities', () => {
  const anthropic = createAnthropic({ apiKey: 'test' });
  const openai = createOpenAI({ apiKey: 'test' });

  it('knows the model families of the provider packages Ghostlight is tested with', () => {
    expect(modelCapabilities(anthropic('claude-sonnet-4-5-20250929'))).toMatchObject({ known: true, nativeStructuredOutput: true, tools: true, toolChoice: true });
    expect(modelCapabilities(anthropic('claude-3-haiku-20240307'))).toMatchObject({ known: true, nativeStructuredOutput: false, tools: true });
    expect(modelCapabilities(openai('gpt-5-mini')).inputModalities).toEqual(['text', 'image', 'pdf']);
    expect(modelCapabilities(openai.chat('gpt-4o'))).toMatchObject({ known: true, nativeStructuredOutput: true });
    expect(modelCapabilities('anthropic/claude-opus-4-5')).toMatchObject({ known: true, nativeStructuredOutput: true });
  });

  it('knows the context windows and output ceilings of those families, and the application overrides them', () => {
    expect(modelCapabilities(anthropic('claude-sonnet-4-5')).contextWindow).toBe(200_000);
    expect(modelCapabilities(openai('gpt-5-mini'))).toMatchObject({ contextWindow: 400_000, maxOutputTokens: 128_000 });
    expect(modelCapabilities(openai('gpt-5-chat-latest'))).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(modelCapabilities(openai.chat('gpt-4o-mini'))).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(modelCapabilities(openai('gpt-4.1')).contextWindow).toBe(1_047_576);
    expect(modelCapabilities(createOfflineDemoModel()).contextWindow).toBeUndefined();
    expect(modelCapabilities(openai('gpt-5'), { contextWindow: 32_000 }).contextWindow).toBe(32_000);
  });

  it('treats other models as unknown until the application says otherwise', () => {
    const demo = createOfflineDemoModel();
    expect(modelCapabilities(demo).known).toBe(false);
    expect(modelCapabilities(demo, { tools: true, toolChoice: true })).toMatchObject({ known: true, tools: true, toolChoice: true, nativeStructuredOutput: false });
    expect(modelCapabilities(anthropic('claude-sonnet-4-5'), { inputModalities: ['text'] }).inputModalities).toEqual(['text']);
    expect(modelIdentity(demo)).toBe('ghostlight/offline-demo');
  });
});
