// The benchmark Worker: the same support agent behind `createAgentApp` with a scripted model, and a bare Hono
// route that does the same JSON work (read and check the body, build and send a run-shaped JSON answer).
import { MockLanguageModelV4 } from 'ai/test';
import { Hono } from 'hono';
import { defineAgent } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';

const ANSWER = 'Standard shipping takes three to five business days.';
const usage = { inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 12, text: 12, reasoning: 0 } };

const model = new MockLanguageModelV4({
  doStream: async () => ({
    stream: new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 't' });
        for (const word of ANSWER.split(/(?<= )/)) controller.enqueue({ type: 'text-delta', id: 't', delta: word });
        controller.enqueue({ type: 'text-end', id: 't' });
        controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
        controller.close();
      },
    }),
  }),
});

const agent = defineAgent({ name: 'support', model, instructions: 'You are a customer support assistant.' });
const api = createAgentApp({ agents: [agent], auth: () => ({ actorId: 'bench' }) });

const app = new Hono();
app.get('/api', (context) => context.json({ bench: true }));
app.post('/bare/runs', async (context) => {
  const body = (await context.req.json()) as { input?: unknown };
  if (typeof body?.input !== 'string' || body.input.length === 0) return context.json({ error: { code: 'invalid_input', message: 'input' } }, 400);
  const runId = crypto.randomUUID();
  const tokens = { inputTokens: 40, inputTokenDetails: { noCacheTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 }, outputTokens: 12, outputTokenDetails: { textTokens: 12, reasoningTokens: 0 }, totalTokens: 52 };
  return context.json({
    runId,
    sessionId: runId,
    agent: 'support',
    outcome: 'completed',
    response: ANSWER,
    output: ANSWER,
    usage: tokens,
    steps: [{ turn: 1, text: ANSWER, finishReason: 'stop', usage: tokens, toolCalls: [] }],
    durationMs: 0,
  });
});
app.route('/', api);

export default app;
