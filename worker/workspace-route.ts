import type { AuthResult } from 'ghostlight/http';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { jsonError } from './json-error';

/**
 * `/workspaces/:id/…` → the caller's `WORKSPACES` Durable Object named `id`
 * (`GET|PUT|DELETE /workspaces/:id/files/<path>`, `GET /workspaces/:id/list/<path>`,
 * `GET|PUT /workspaces/:id/snapshot`). Off unless `WORKSPACE_ROUTES` is `on`.
 * Behind the same `auth` as the agent routes, and scoped by actor: the object
 * is named `<actorId>/<id>`, so one user never reaches another's files.
 */
export async function workspaceRoute(
  request: Request,
  env: Record<string, unknown>,
  auth: (request: Request) => AuthResult | null | undefined | Promise<AuthResult | null | undefined>,
): Promise<Response | undefined> {
  if (env.WORKSPACE_ROUTES !== 'on') return undefined;
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/workspaces/')) return undefined;
  const match = /^\/workspaces\/([A-Za-z0-9_-]{1,64})(\/.*)$/.exec(url.pathname);
  const namespace = env.WORKSPACES as DurableObjectNamespaceLike | undefined;
  const caller = await auth(request);
  if (!caller) return jsonError(401, 'unauthorized', 'Authentication required');
  if (!match || !namespace) return jsonError(404, 'not_found', 'No such workspace route');
  const stub = namespace.get(namespace.idFromName(`${caller.actorId}/${match[1]!}`) as never);
  return stub.fetch(new Request(new URL(`${match[2]}${url.search}`, 'https://workspace.internal'), request));
}
