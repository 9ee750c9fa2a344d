import type { Hono } from 'hono';
import { createWorkerApp } from './worker-app';
import { workspaceRoute } from './workspace-route';

export { SessionDurableObject, WorkspaceDurableObject } from 'ghostlight/cloudflare';

const apps = new WeakMap<object, Hono>();

/** The Cloudflare Worker entry: Workers requires a default export. */
export default {
  fetch(request: Request, env: Record<string, unknown>, context?: unknown): Response | Promise<Response> {
    const workspace = workspaceRoute(request, env);
    if (workspace) return workspace;
    let app = apps.get(env);
    if (!app) {
      app = createWorkerApp(env);
      apps.set(env, app);
    }
    return app.fetch(request, env, context as never);
  },
};
