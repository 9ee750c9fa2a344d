import { Hono } from 'hono';
import { InvocationError } from '../src/index';
import { createSupportAgent } from './demo-agent';
import { modelFromEnv } from './model-from-env';

/**
 * The demo HTTP surface: `GET /` describes it, `POST /agents/support/runs`
 * with `{"input": "…"}` runs the support agent and returns the run as JSON.
 */
export function createDemoApp(env: Record<string, unknown>): Hono {
  const choice = modelFromEnv(env);
  const agent = createSupportAgent(choice.model);
  const app = new Hono();
  app.get('/', (context) =>
    context.json({
      name: 'ghostlight',
      model: choice.label,
      agents: [agent.name],
      try: `curl -s -X POST -H 'content-type: application/json' -d '{"input":"How long does shipping take?"}' ${new URL(context.req.url).origin}/agents/support/runs`,
    }),
  );
  app.post('/agents/:name/runs', async (context) => {
    if (context.req.param('name') !== agent.name) return context.json({ error: 'Unknown agent' }, 404);
    let body: unknown;
    try {
      body = await context.req.json();
    } catch {
      return context.json({ error: 'The body must be JSON: {"input": "…"}' }, 400);
    }
    const input = (body as { input?: unknown } | null)?.input;
    if (typeof input !== 'string' || input.length === 0) {
      return context.json({ error: 'input must be a non-empty string' }, 400);
    }
    try {
      const run = await agent.ask(input, { signal: context.req.raw.signal });
      return context.json(run.toJSON());
    } catch (error) {
      if (InvocationError.isInstance(error)) return context.json({ error: error.message }, 400);
      throw error;
    }
  });
  return app;
}
