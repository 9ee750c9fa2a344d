import { Hono } from 'hono';
import { MemorySessionStore } from 'ghostlight';
import { createAgentApp } from 'ghostlight/http';
import type { SessionStore } from 'ghostlight';
import { DurableObjectSessionStore } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { createSupportAgent } from './demo-agent';
import { createAnalystAgent } from './demo-analyst';
import { createResearchTeam } from './demo-research';
import { demoAuth } from './demo-auth';
import { modelFromEnv } from './model-from-env';
import { jsonError } from './json-error';
import { placeholderPage } from './placeholder-page';
import { traceRoutes } from './trace-route';

/**
 * The demo Worker's app: the agent API from `createAgentApp` under
 * `/agents`, sessions in the `SESSIONS` Durable Object namespace (memory when
 * the binding is absent), `GET /api` describing the service, and a
 * placeholder page at `/` until the playground (`dist-web/`) is built.
 */
export function createWorkerApp(env: Record<string, unknown>): Hono {
  const choice = modelFromEnv(env);
  const agent = createSupportAgent(choice.model);
  const analyst = createAnalystAgent(choice.model);
  const research = createResearchTeam(choice.model);
  const namespace = env.SESSIONS as DurableObjectNamespaceLike | undefined;
  const sessions: SessionStore = namespace ? new DurableObjectSessionStore(namespace) : new MemorySessionStore();
  const app = new Hono();
  const auth = demoAuth(env);
  const instrumentation = traceRoutes(app, auth);
  const api = createAgentApp({
    agents: [agent, analyst, research],
    auth,
    instrumentation,
    sessions,
    runTimeoutMs: 120_000,
    onError: (error) => console.error('ghostlight: unexpected error', error),
  });
  app.notFound((context) => jsonError(404, 'not_found', `No route for ${context.req.method} ${new URL(context.req.url).pathname.slice(0, 200)}`));
  app.onError((error) => {
    console.error('ghostlight: unexpected error', error);
    return jsonError(500, 'internal_error', 'Internal server error');
  });
  app.get('/api', (context) =>
    context.json({
      name: 'ghostlight',
      model: choice.label,
      agents: [agent.name, analyst.name, research.name],
      sessions: namespace ? 'durable-object' : 'memory',
      routes: ['POST /agents/:name/sessions', 'POST /agents/:name/runs', 'GET /agents/:name/runs/:runId/events', 'POST /agents/:name/ag-ui', 'POST /agents/:name/chat'],
      try: `curl -s -X POST -H 'content-type: application/json' -d '{"input":"How long does shipping take?"}' ${new URL(context.req.url).origin}/agents/support/runs`,
    }),
  );
  app.get('/', (context) => context.html(placeholderPage(choice.label)));
  app.route('/', api);
  return app;
}
