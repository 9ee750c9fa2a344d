import { createHash } from 'node:crypto';
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

  it('restores a lead agent\'s persisted subagents after a restart (Durable Object session store)', async () => {
    dev ??= await startWranglerDev({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo });
    const actor = { 'x-ghostlight-actor': 'ada' };
    const { sessionId } = (await (await post(dev.origin, '/agents/research/sessions', {}, actor)).json()) as { sessionId: string };
    const registryId = `ghostlight_subagent_registry_${createHash('sha256').update(`ada\u0000${sessionId}`).digest('hex')}`;
    const session = async (id: string) =>
      (await (await fetch(`${dev!.origin}/agents/research/sessions/${id}`, { headers: actor })).json()) as { messages: unknown[]; state: Record<string, any> };
    type Summary = { outcome: string; response: string; steps: Array<{ toolCalls: Array<{ toolName: string; content: string }> }> };
    const calls = (summary: Summary) => summary.steps.flatMap((step) => step.toolCalls).map((call) => ({ name: call.toolName, value: JSON.parse(call.content) as Record<string, any> }));

    const first = (await (await post(dev.origin, '/agents/research/runs', { input: 'Research solar panel prices and wind turbine rivals', sessionId }, actor)).json()) as Summary;
    expect(first.outcome).toBe('completed');
    expect(first.response).toContain('Here is what my 2 subagents found');
    const registry = await session(registryId);
    const conversations = registry.state.conversations as Record<string, { conversation_id: string; latest_turn: number; message_count: number }>;
    expect(Object.keys(conversations).sort()).toEqual(['/root/solar_panel_prices', '/root/wind_turbine_rivals']);
    expect(Object.values(conversations).map((record) => record.message_count)).toEqual([2, 2]);

    await dev.stop();
    dev = await startWranglerDev({ port: PORT, inspectorPort: INSPECTOR_PORT, persistTo });

    const second = (await (await post(dev.origin, '/agents/research/runs', { input: 'Follow up on the earlier research', sessionId }, actor)).json()) as Summary;
    expect(second.outcome).toBe('completed');
    const [listed, followed] = calls(second);
    expect(listed!.name).toBe('list_subagents');
    expect(listed!.value.subagents.map((item: { resumed?: boolean }) => item.resumed)).toEqual([true, true]);
    expect(followed).toMatchObject({ name: 'send_message_to_subagent', value: { status: 'finished', turn: 2 } });
    const followedId = followed!.value.subagent_id as string;
    const after = (await session(registryId)).state.conversations as typeof conversations;
    expect(after[followedId]).toMatchObject({ conversation_id: conversations[followedId]!.conversation_id, latest_turn: 2, message_count: 4 });
    const transcript = await session(`ghostlight_subagent_conversation_${conversations[followedId]!.conversation_id}`);
    expect(transcript.messages).toHaveLength(4);
    expect(JSON.stringify(transcript.messages[0])).toContain('Research ');
  }, 180_000);
});
