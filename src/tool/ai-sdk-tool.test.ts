import { tool } from 'ai';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent/agent.ts';
import { fromAiSdkTool } from './ai-sdk-tool.ts';
import { scriptedModel } from '../../test/support/scripted-model.ts';

describe('AI SDK tool() values', () => {
  const search = tool({
    description: 'Search the docs.',
    inputSchema: toStandardJsonSchema(v.object({ query: v.string() })),
    execute: async ({ query }, options) => ({ query, id: options.toolCallId }),
  });

  it('run through the same executor, with our validation messages', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'ok', name: 'search', input: { query: 'x' } }, { id: 'bad', name: 'search', input: {} }] },
      { text: 'done' },
    ]);
    const run = await defineAgent({ name: 'aisdk', model, tools: [{ search }] }).ask('go');
    expect(run.steps[0]?.toolResults.map((result) => [result.status, result.content])).toEqual([
      ['success', '{"query":"x","id":"ok"}'],
      ['error', 'Invalid tool input: $.query is required'],
    ]);
  });

  it('adapt once per name and reject missing descriptions', () => {
    expect(fromAiSdkTool('search', search)).toBe(fromAiSdkTool('search', search));
    expect(() => fromAiSdkTool('nameless', tool({ inputSchema: toStandardJsonSchema(v.object({})), execute: async () => 1 }))).toThrow('Tool description is required');
  });
});
