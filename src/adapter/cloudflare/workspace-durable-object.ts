import { Workspace } from '../../workspace/workspace.ts';
import { WorkspaceError } from '../../workspace/workspace-error.ts';
import { WorkspaceLimitError } from '../../workspace/workspace-limit-error.ts';
import { DEFAULT_WORKSPACE_LIMITS } from '../../workspace/workspace-limits.ts';
import { snapshotFromJson, snapshotToJson } from '../../workspace/workspace-snapshot.ts';
import { DurableObjectWorkspaceStore } from './durable-object-workspace-store.ts';
import type { DurableObjectWorkspaceStorage } from './durable-object-workspace-store.ts';

/** The `state` a Durable Object class receives, as far as this object uses it. */
export interface WorkspaceDurableObjectState {
  readonly storage: DurableObjectWorkspaceStorage;
}

/**
 * A Durable Object holding one durable workspace (a conversation's, say):
 * the workspace lives in the object's storage, survives evictions and
 * restarts, and the object serialises every request to it. The Worker talks
 * to it over `fetch`; authorise requests in the Worker before forwarding.
 *
 * Routes (paths are workspace references, URL-encoded):
 * `GET /files/<path>` (bytes), `PUT /files/<path>` (body becomes the file;
 * missing parents are created), `DELETE /files/<path>`, `GET /list/<path>`
 * (JSON entries), `GET /snapshot` and `PUT /snapshot` (the JSON snapshot).
 *
 * Export it from your Worker and bind it (see `wrangler.toml`):
 * `export { WorkspaceDurableObject } from 'ghostlight/cloudflare';`
 */
export class WorkspaceDurableObject {
  readonly #state: WorkspaceDurableObjectState;
  #workspace: Promise<Workspace> | undefined;

  constructor(state: WorkspaceDurableObjectState, _env?: unknown) {
    this.#state = state;
  }

  /** The object's workspace, opened from storage on first use. */
  workspace(): Promise<Workspace> {
    this.#workspace ??= Workspace.open({ store: new DurableObjectWorkspaceStore(this.#state.storage) });
    this.#workspace.catch(() => {
      this.#workspace = undefined;
    });
    return this.#workspace;
  }

  /**
   * Answers the routes above. Every answer that is not a file's bytes is JSON;
   * errors are `{"error": {"code", "message"}}` with no stack: a malformed path
   * or a body that is not a snapshot is a 400, a body over the limit a 413
   * (checked from `Content-Length` and while reading, before anything is
   * written), an unexpected failure a 500 that is logged.
   */
  async fetch(request: Request): Promise<Response> {
    try {
      return await this.#answer(request);
    } catch (error) {
      if (error instanceof RouteError) return fail(error.status, error.code, error.message);
      if (WorkspaceLimitError.isInstance(error)) return fail(413, 'workspace_limit', error.message);
      if (WorkspaceError.isInstance(error)) return fail(error.code === 'not-found' ? 404 : 400, error.code, error.message);
      console.error('ghostlight: workspace Durable Object failed', error);
      return fail(500, 'internal_error', 'Internal server error');
    }
  }

  async #answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const [, route = '', ...rest] = url.pathname.split('/');
    let path: string;
    try {
      path = decodeURIComponent(rest.join('/')) || '.';
    } catch {
      throw new RouteError(400, 'invalid_path', 'The path is not valid percent-encoding');
    }
    const workspace = await this.workspace();
    if (route === 'files' && request.method === 'GET') return new Response((await workspace.readFile(path)) as Uint8Array<ArrayBuffer>);
    if (route === 'files' && request.method === 'PUT') {
      await workspace.writeFile(path, await readBody(request, DEFAULT_WORKSPACE_LIMITS.maxFileBytes), { parents: true });
      return Response.json({ ok: true });
    }
    if (route === 'files' && request.method === 'DELETE') {
      await workspace.delete(path, { recursive: url.searchParams.get('recursive') === 'true' });
      return Response.json({ ok: true });
    }
    if (route === 'list' && request.method === 'GET') return Response.json(await workspace.list(path));
    if (route === 'snapshot' && request.method === 'GET') return Response.json(snapshotToJson(await workspace.exportSnapshot()));
    if (route === 'snapshot' && request.method === 'PUT') {
      const bytes = await readBody(request, 2 * DEFAULT_WORKSPACE_LIMITS.maxTotalBytes);
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw new RouteError(400, 'invalid_json', 'The snapshot is not valid JSON');
      }
      await workspace.importSnapshot(snapshotFromJson(json));
      return Response.json({ ok: true });
    }
    throw new RouteError(404, 'not_found', `No workspace route for ${request.method} /${route}`);
  }
}

/** A refusal with its HTTP status. */
class RouteError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The body, refused with a 413 past `maxBytes` (from `Content-Length`, then while reading). */
async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new RouteError(413, 'body_too_large', `The request body is larger than ${maxBytes} bytes`);
  if (Number(request.headers.get('content-length')) > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if ((size += chunk.value.byteLength) > maxBytes) {
      await reader?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.byteLength), 0);
  return bytes;
}

function fail(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}
