import { Hono } from 'hono';
import { createAgentApp } from 'ghostlight/http';
import { durableRuns } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { demoAgents } from './demo-agents';
import { demoAuth } from './demo-auth';
import { jsonError } from './json-error';
import { placeholderPage } from './placeholder-page';
import { traceRoutes } from './trace-route';

/**
 * The demo Worker's app: the agent API from `createAgentApp` under
 * `/agents`, sessions in the `SESSIONS` Durable Object namespace (memory when
 * the binding is absent), each `/runs` run in its own `RUNS` Durable Object
 * (in the isolate when that binding is absent), `GET /api` describing the service, and a
 * placeholder page at `/` until the playground (`dist-web/`) is built.
 */
export function createWorkerApp(env: Record<string, unknown>): Hono {
  const { choice, agents, sessions, durableSessions } = demoAgents(env);
  const runs = env.RUNS as DurableObjectNamespaceLike | undefined;
  const app = new Hono();
  const auth = demoAuth(env);
  const instrumentation = traceRoutes(app, auth);
  const api = createAgentApp({
    agents,
    auth,
    ...(runs ? { runs: durableRuns(runs) } : {}),
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
      agents: agents.map((agent) => agent.name),
      sessions: durableSessions ? 'durable-object' : 'memory',
      runs: runs ? 'durable-object' : 'isolate',
      routes: [
        'POST /agents/:name/sessions',
        'POST /agents/:name/runs',
        'GET /agents/:name/runs/:runId/events',
        'POST /agents/:name/runs/:runId/interject',
        'POST /agents/:name/runs/:runId/cancel',
        'POST /agents/:name/ag-ui',
        'POST /agents/:name/chat',
      ],
      try: `curl -s -X POST -H 'content-type: application/json' -d '{"input":"How long does shipping take?"}' ${new URL(context.req.url).origin}/agents/support/runs`,
    }),
  );
  app.get('/', (context) => context.html(placeholderPage(choice.label)));
  app.route('/', api);
  return app;
}
