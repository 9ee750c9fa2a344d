import type { Hono } from 'hono';
import { createWorkerApp } from './worker-app';
import { demoAuth } from './demo-auth';
import { jsonError } from './json-error';
import { workspaceRoute } from './workspace-route';

import { defineRunDurableObject } from 'ghostlight/cloudflare';
import { demoAgents } from './demo-agents';

export { SessionDurableObject, WorkspaceDurableObject } from 'ghostlight/cloudflare';

/** One Durable Object per `/runs` run (the `RUNS` binding): it runs the same agents as the app. */
export const RunDurableObject = defineRunDurableObject((env: Record<string, unknown>) => {
  const { agents, sessions } = demoAgents(env);
  return { agents, sessions };
});

const apps = new WeakMap<object, Hono>();

/** The Cloudflare Worker entry: Workers requires a default export. Every error is JSON; none shows a stack. */
export default {
  async fetch(request: Request, env: Record<string, unknown>, context?: unknown): Promise<Response> {
    try {
      const workspace = await workspaceRoute(request, env, demoAuth(env));
      if (workspace) return workspace;
      let app = apps.get(env);
      if (!app) {
        app = createWorkerApp(env);
        apps.set(env, app);
      }
      return await app.fetch(request, env, context as never);
    } catch (error) {
      console.error('ghostlight: unexpected error', error);
      return jsonError(500, 'internal_error', 'Internal server error');
    }
  },
};
