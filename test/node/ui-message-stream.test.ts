import { createOpenAI } from '@ai-sdk/openai';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { defineAgent, MemorySessionStore } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import { startFixtureServer } from '../support/fixture-server';
import { calculatorTool as calculator } from '../support/calculator-tool';
import { hasRealworld, recordedStreams } from '../support/realworld';

describe.skipIf(!hasRealworld('provider-fixtures'))('AI SDK UI message stream (useChat transport + readUIMessageStream)', () => {
  it('rebuilds the assistant message of a recorded tool loop, and continues the chat', async () => {
    const provider = await startFixtureServer([
      ...recordedStreams('openai/openai-reasoning-encrypted-content.1.chunks.txt', '"type":"response.created"'),
      ...recordedStreams('openai/openai-text.chunks.txt'),
    ]);
    try {
      const openai = createOpenAI({ baseURL: provider.baseURL, apiKey: 'test-key' });
      let calls = 0;
      const agent = defineAgent({ name: 'calc', model: openai('gpt-5-mini'), tools: [calculator], settings: { maxRetries: 0 } });
      const chatAgent = defineAgent({ name: 'chat', model: openai.chat('gpt-4.1-nano'), settings: { maxRetries: 0 } });
      const app = createAgentApp({ agents: [agent, chatAgent], auth: () => ({ actorId: 'ada' }), sessions: new MemorySessionStore(), sessionIds: 'client' });
      const transport = (name: string) =>
        new DefaultChatTransport<UIMessage>({ api: `http://app.test/agents/${name}/chat`, fetch: async (url, init) => (calls++, app.fetch(new Request(url, init))) });

      const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Compute ((12 + 7) * 3) * 10.' }] };
      const stream = await transport('calc').sendMessages({ chatId: 'chat-0001-of-the-test', messages: [question], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
      let message: UIMessage | undefined;
      for await (const state of readUIMessageStream({ stream, terminateOnError: true })) message = state;
      expect(message?.role).toBe('assistant');
      const tools = message!.parts.filter((part) => part.type === 'tool-calculator') as Array<{ state: string; output: unknown; input: unknown }>;
      expect(tools.map((part) => [part.state, part.output])).toEqual([
        ['output-available', '19'],
        ['output-available', '57'],
        ['output-available', '570'],
      ]);
      expect(tools[0]!.input).toEqual({ a: 12, b: 7, op: 'add' });
      const text = message!.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join('');
      expect(text).toContain('The final result is **570**.');
      expect(message!.parts.some((part) => part.type === 'reasoning')).toBe(true);
      expect(message!.metadata).toMatchObject({ outcome: 'completed', usage: { totalTokens: expect.any(Number) } });

      const followUp: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Say hello' }] };
      const second = await transport('chat').sendMessages({ chatId: 'chat-0002-of-the-test', messages: [question, message!, followUp], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
      let reply: UIMessage | undefined;
      for await (const state of readUIMessageStream({ stream: second, terminateOnError: true })) reply = state;
      expect(reply!.parts.filter((part) => part.type === 'text').length).toBeGreaterThan(0);
      const sent = provider.requests[4]!.body as { messages: Array<{ role: string }> };
      // The client's replay of the agent's own tool calls is not trusted: only the text of the turn reaches the model.
      expect(sent.messages.map((item) => item.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(sent.messages)).not.toContain('calculator');
      expect(calls).toBe(2);
    } finally {
      await provider.close();
    }
  });
});
