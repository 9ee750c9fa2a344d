import { Workspace } from '../../workspace/workspace.ts';
import { WorkspaceError } from '../../workspace/workspace-error.ts';
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

  /** Answers the routes above; workspace failures are 4xx answers with the error's message. */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const [, route = '', ...rest] = url.pathname.split('/');
    const path = decodeURIComponent(rest.join('/')) || '.';
    const workspace = await this.workspace();
    try {
      if (route === 'files' && request.method === 'GET') return new Response((await workspace.readFile(path)) as Uint8Array<ArrayBuffer>);
      if (route === 'files' && request.method === 'PUT') {
        await workspace.writeFile(path, new Uint8Array(await request.arrayBuffer()), { parents: true });
        return Response.json({ ok: true });
      }
      if (route === 'files' && request.method === 'DELETE') {
        await workspace.delete(path, { recursive: url.searchParams.get('recursive') === 'true' });
        return Response.json({ ok: true });
      }
      if (route === 'list' && request.method === 'GET') return Response.json(await workspace.list(path));
      if (route === 'snapshot' && request.method === 'GET') return Response.json(snapshotToJson(await workspace.exportSnapshot()));
      if (route === 'snapshot' && request.method === 'PUT') {
        await workspace.importSnapshot(snapshotFromJson(await request.json()));
        return Response.json({ ok: true });
      }
      return Response.json({ error: 'Not found' }, { status: 404 });
    } catch (error) {
      if (!WorkspaceError.isInstance(error)) throw error;
      return Response.json({ error: error.message, code: error.code }, { status: error.code === 'not-found' ? 404 : 400 });
    }
  }
}
