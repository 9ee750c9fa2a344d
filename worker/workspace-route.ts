import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';

/**
 * `/workspaces/:id/…` → the `WORKSPACES` Durable Object named `id`
 * (`GET|PUT|DELETE /workspaces/:id/files/<path>`, `GET /workspaces/:id/list/<path>`,
 * `GET|PUT /workspaces/:id/snapshot`). Off unless `WORKSPACE_ROUTES` is `on`:
 * the demo has no per-user authorisation for workspaces, so a deployment must
 * opt in (the restart test does, with `--var WORKSPACE_ROUTES:on`).
 */
export function workspaceRoute(request: Request, env: Record<string, unknown>): Promise<Response> | undefined {
  if (env.WORKSPACE_ROUTES !== 'on') return undefined;
  const url = new URL(request.url);
  const match = /^\/workspaces\/([A-Za-z0-9_-]{1,64})(\/.*)$/.exec(url.pathname);
  const namespace = env.WORKSPACES as DurableObjectNamespaceLike | undefined;
  if (!match || !namespace) return undefined;
  const stub = namespace.get(namespace.idFromName(match[1]!) as never);
  return stub.fetch(new Request(new URL(`${match[2]}${url.search}`, 'https://workspace.internal'), request));
}
