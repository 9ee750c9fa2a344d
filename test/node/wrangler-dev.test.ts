import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { startWranglerDev } from '../support/wrangler-dev';
import type { WranglerDev } from '../support/wrangler-dev';


const post = (origin: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the demo Worker under wrangler dev', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'ghostlight-persist-'));
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

  it('keeps a server-issued session across a restart, answers another actor as if it did not exist, and survives the bad-input corpus', async () => {
    dev = await startWranglerDev({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo });
    const created = await post(dev.origin, '/agents/support/sessions', {}, { 'x-ghostlight-actor': 'ada' });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const first = await post(dev.origin, '/agents/support/runs', { input: 'How long does shipping take?', sessionId }, { 'x-ghostlight-actor': 'ada' });
    expect(first.status).toBe(200);
    const stored = (await (await fetch(`${dev.origin}/agents/support/sessions/${sessionId}`, { headers: { 'x-ghostlight-actor': 'ada' } })).json()) as { messages: unknown[] };
    expect(stored.messages.length).toBeGreaterThanOrEqual(2);

    await dev.stop();
    dev = await startWranglerDev({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo });

    const restored = (await (await fetch(`${dev.origin}/agents/support/sessions/${sessionId}`, { headers: { 'x-ghostlight-actor': 'ada' } })).json()) as { messages: unknown[] };
    expect(restored.messages).toEqual(stored.messages);
    const second = await post(dev.origin, '/agents/support/runs', { input: 'What about refunds?', sessionId }, { 'x-ghostlight-actor': 'ada' });
    expect(((await second.json()) as { outcome: string }).outcome).toBe('completed');
    const after = (await (await fetch(`${dev.origin}/agents/support/sessions/${sessionId}`, { headers: { 'x-ghostlight-actor': 'ada' } })).json()) as { messages: Array<{ role: string }> };
    expect(after.messages.slice(0, stored.messages.length)).toEqual(stored.messages);
    expect(after.messages.length).toBeGreaterThan(stored.messages.length);

    const intruder = await post(dev.origin, '/agents/support/runs', { input: 'Hi', sessionId }, { 'x-ghostlight-actor': 'eve' });
    expect(intruder.status).toBe(404);
    expect(await intruder.json()).toEqual({ error: { code: 'unknown_session', message: 'No such session' } });

    const corpus: Array<[Promise<Response>, number]> = [
      [post(dev.origin, '/agents/support/runs', '{"input": '), 400],
      [fetch(`${dev.origin}/agents/support/runs`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }), 415],
      [post(dev.origin, '/agents/support/runs', { input: 'x'.repeat(3 * 1024 * 1024) }), 413],
      [post(dev.origin, '/agents/nobody/runs', { input: 'Hi' }), 404],
      [post(dev.origin, '/agents/support/runs', { input: 'Hi' }, { 'x-ghostlight-actor': '<script>' }), 401],
      [post(dev.origin, '/agents/support/chat', { id: 'c1', messages: Array.from({ length: 20_000 }, (_, i) => ({ id: `${i}`, role: 'user', parts: [{ type: 'text', text: 'x' }] })) }), 413],
    ];
    for (const [response, status] of corpus) {
      const answered = await response;
      expect(answered.status).toBe(status);
      expect(((await answered.json()) as { error: { message: string } }).error.message.length).toBeGreaterThan(0);
    }
    const still = await post(dev.origin, '/agents/support/runs', { input: 'How long does shipping take?' });
    expect(still.status).toBe(200);
  }, 180_000);
});
