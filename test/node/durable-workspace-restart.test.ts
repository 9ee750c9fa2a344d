import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { startWranglerDev } from '../support/wrangler-dev';
import type { WranglerDev } from '../support/wrangler-dev';


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
  }, 180_000);
});
