// The demo Worker without its code-mode agent: the support agent, createAgentApp and Durable Object sessions,
// imported by path so QuickJS and its wasm stay out (bundle-size measurement only).
import { Hono } from 'hono';
import { DurableObjectSessionStore } from '../../src/adapter/cloudflare/durable-object-session-store';
import type { DurableObjectNamespaceLike } from '../../src/adapter/cloudflare/durable-object-types';
import { createAgentApp } from 'ghostlight/http';
import { createSupportAgent } from '../../worker/demo-agent';
import { demoAuth } from '../../worker/demo-auth';
import { modelFromEnv } from '../../worker/model-from-env';

export { SessionDurableObject } from '../../src/adapter/cloudflare/session-durable-object';

export default {
  fetch(request: Request, env: Record<string, unknown>) {
    const agent = createSupportAgent(modelFromEnv(env).model);
    const sessions = new DurableObjectSessionStore(env.SESSIONS as DurableObjectNamespaceLike);
    const app = new Hono().route('/', createAgentApp({ agents: [agent], auth: demoAuth(env), sessions }));
    return app.fetch(request, env);
  },
};
