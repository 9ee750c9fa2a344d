import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { startWranglerDev } from '../support/wrangler-dev';
import type { WranglerDev } from '../support/wrangler-dev';


/** A PUT that declares `bytes` in Content-Length and sends a few: the server must refuse it from the header, before reading. */
async function declaredOnly(url: string, bytes: number): Promise<Response> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'PUT', headers: { 'content-length': String(bytes) } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers: incoming.headers as Record<string, string> }));
        outgoing.destroy();
      });
    });
    outgoing.on('error', reject);
    outgoing.write(Buffer.alloc(16));
  });
}

describe('a Durable Object workspace under wrangler dev', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'ghostlight-workspace-persist-'));
  let dev: WranglerDev | undefined;
  let PORT = 0;
  let INSPECTOR_PORT = 0;
  beforeAll(async () => {
    PORT = await freePort();
    INSPECTOR_PORT = await freePort();
  });
  afterAll(async () => {
    await dev?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it('survives a restart of wrangler dev', async () => {
    const start = () => startWranglerDev({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo, vars: { WORKSPACE_ROUTES: 'on' } });
    dev = await start();
    const id = `conversation-${Date.now()}`;
    const base = () => `${dev!.origin}/workspaces/${id}`;
    const large = new Uint8Array(250_000).map((_, index) => index % 253);
    expect((await fetch(`${base()}/files/notes/today.md`, { method: 'PUT', body: '# Today\nremember the milk\n' })).status).toBe(200);
    expect((await fetch(`${base()}/files/data/blob.bin`, { method: 'PUT', body: large })).status).toBe(200);
    expect((await fetch(`${base()}/files/notes/scratch.md`, { method: 'PUT', body: 'gone soon' })).status).toBe(200);
    expect((await fetch(`${base()}/files/notes/scratch.md`, { method: 'DELETE' })).status).toBe(200);
    const before = await (await fetch(`${base()}/snapshot`)).json();

    await dev.stop();
    dev = await start();

    expect(await (await fetch(`${base()}/files/notes/today.md`)).text()).toBe('# Today\nremember the milk\n');
    expect(new Uint8Array(await (await fetch(`${base()}/files/data/blob.bin`)).arrayBuffer())).toEqual(large);
    expect((await fetch(`${base()}/files/notes/scratch.md`)).status).toBe(404);
    expect(((await (await fetch(`${base()}/list/notes`)).json()) as Array<{ name: string }>).map((entry) => entry.name)).toEqual(['today.md']);
    expect(await (await fetch(`${base()}/snapshot`)).json()).toEqual(before);
    expect((await fetch(`${dev.origin}/workspaces/${id}/files/..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);

    // Another actor's workspace of the same name is another workspace.
    expect((await fetch(`${base()}/files/notes/today.md`, { headers: { 'x-ghostlight-actor': 'eve' } })).status).toBe(404);
    // Bad input is a JSON 4xx, never a 500 with a stack.
    const bad: Array<[Promise<Response>, number, string]> = [
      [fetch(`${base()}/files/%E0%A4%A`), 400, 'invalid_path'],
      [fetch(`${base()}/snapshot`, { method: 'PUT', body: 'not json' }), 400, 'invalid_json'],
      [fetch(`${base()}/snapshot`, { method: 'PUT', body: '{"version":"nope"}' }), 400, 'invalid-path'],
      [declaredOnly(`${base()}/files/huge.bin`, 33 * 1024 * 1024), 413, 'body_too_large'],
      [fetch(`${base()}/nowhere`), 404, 'not_found'],
      [fetch(`${dev.origin}/workspaces/${id}/files/a`, { headers: { 'x-ghostlight-actor': '<bad>' } }), 401, 'unauthorized'],
    ];
    for (const [pending, status, code] of bad) {
      const response = await pending;
      if (status === 413) expect(response.headers.get('content-type')).toContain('json');
      const text = await response.text();
      expect({ status: response.status, code: (JSON.parse(text) as { error: { code: string } }).error.code }).toEqual({ status, code });
      expect(text).not.toMatch(/at .*:\d+|\/work\//);
    }
    expect((await fetch(`${base()}/files/notes/today.md`)).status).toBe(200);
  }, 180_000);
});
