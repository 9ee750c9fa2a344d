import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_EVICTED_MESSAGE } from 'ghostlight/cloudflare';
import { freePort } from '../support/ports';
import { projectRoot } from '../support/realworld';
import { parseSse } from '../support/sse';
import { startWranglerDev } from '../support/wrangler-dev';
import type { WranglerDev } from '../support/wrangler-dev';

type Event = { type: string; sequence: number; [key: string]: unknown };
const TERMINAL = ['run-stop', 'run-partial', 'run-cancel', 'run-error'];

/** Reads an SSE response's events incrementally: `until(type)` returns once an event of that type arrived. */
function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Event[] = [];
  let buffer = '';
  async function until(done: (event: Event) => boolean): Promise<Event[]> {
    for (;;) {
      const found = events.find(done);
      if (found) return events;
      const chunk = await reader.read();
      if (chunk.done) return events;
      buffer += chunk.value;
      const end = buffer.lastIndexOf('\n\n');
      if (end < 0) continue;
      events.push(...parseSse(buffer.slice(0, end + 2)).map((frame) => frame.data as Event));
      buffer = buffer.slice(end + 2);
    }
  }
  return { events, until, untilType: (type: string) => until((event) => event.type === type), untilEnd: () => until((event) => TERMINAL.includes(event.type)), close: () => reader.cancel() };
}

describe('durable runs (one Durable Object per run) under wrangler dev', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'ghostlight-durable-runs-'));
  const config = join(projectRoot, 'test/node/fixtures/durable-runs-worker/wrangler.toml');
  let dev: WranglerDev | undefined;
  let port = 0;
  let inspectorPort = 0;
  const start = async () => (dev = await startWranglerDev({ port, inspectorPort, persistTo, config, readyPath: '/agents' }));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${dev!.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const stream = (input: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    post('/agents/slow/runs', { input, ...extra }, { accept: 'text/event-stream', ...headers });
  const readAll = async (runId: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${dev!.origin}/agents/slow/runs/${runId}/events`, { headers });
    expect(response.status).toBe(200);
    return parseSse(await response.text()).map((frame) => frame.data as Event);
  };
  /** Polls the run's log (each read a fresh request) until it ends. */
  const finished = async (runId: string) => {
    for (;;) {
      const events = await readAll(runId);
      if (TERMINAL.includes(events.at(-1)?.type ?? '')) return events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  beforeAll(async () => {
    port = await freePort();
    inspectorPort = await freePort();
    await start();
  }, 90_000);
  afterAll(async () => {
    await dev?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it('resumes from Last-Event-ID with a fresh request, and interjects into and cancels the live run from other requests', async () => {
    const first = await stream('wait 1500');
    const runId = first.headers.get('x-ghostlight-run-id')!;
    const live = sseReader(first);
    await live.untilType('tool-start');
    // Another request reaches the live run in its object: an interjection, answered at the next model boundary.
    const reply = await post(`/agents/slow/runs/${runId}/interject`, { message: 'Only the EU policy, please.', interjectionId: 'eu-only' });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ text: 'Noted: Only the EU policy, please.', toolCalls: false, interjectionIds: ['eu-only'] });
    const all = await live.untilEnd();
    expect(all.at(-1)).toMatchObject({ type: 'run-stop', response: 'Noted: Only the EU policy, please.' });
    expect(all.map((event) => event.sequence)).toEqual(all.map((_, index) => index));
    expect(all.filter((event) => event.type === 'agent-interjection-delivered')).toMatchObject([{ interjectionIds: ['eu-only'] }]);

    // A fresh request resumes after the event it names, with the same events.
    const resumed = await readAll(runId, { 'last-event-id': '4' });
    expect(resumed).toEqual(all.slice(5));
    expect(await readAll(runId)).toEqual(all);

    const long = await stream('wait 60000');
    const longId = long.headers.get('x-ghostlight-run-id')!;
    const longReader = sseReader(long);
    await longReader.untilType('tool-start');
    const cancelled = await post(`/agents/slow/runs/${longId}/cancel`, { reason: 'Changed my mind' });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({ runId: longId, state: 'cancelling' });
    const terminal = { type: 'run-cancel', outcome: 'cancelled', error: { name: 'CancelledError', message: 'The run was cancelled: Changed my mind' } };
    expect((await longReader.untilEnd()).at(-1)).toMatchObject(terminal);
    expect((await finished(longId)).at(-1)).toMatchObject(terminal);
    const again = await post(`/agents/slow/runs/${longId}/cancel`, {});
    expect(await again.json()).toEqual({ runId: longId, state: 'finished' });
    const late = await post(`/agents/slow/runs/${longId}/interject`, { message: 'Hello?' });
    expect({ status: late.status, body: await late.json() }).toEqual({ status: 409, body: { error: { code: 'not_running', message: 'Agent is not currently running' } } });
  }, 60_000);

  it('refuses other actors, bad run ids and oversized bodies, and cancels a run whose client left', async () => {
    const response = await stream('wait 60000');
    const runId = response.headers.get('x-ghostlight-run-id')!;
    const reader = sseReader(response);
    await reader.untilType('tool-start');
    const eve = { 'x-actor': 'eve' };
    const refusals: Array<[Promise<Response>, number, string]> = [
      [fetch(`${dev!.origin}/agents/slow/runs/${runId}/events`, { headers: eve }), 404, 'unknown_run'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: 'Stop that' }, eve), 404, 'unknown_run'],
      [post(`/agents/slow/runs/${runId}/cancel`, {}, eve), 404, 'unknown_run'],
      [post('/agents/slow/runs/not%20a%20run/cancel', {}), 400, 'invalid_run_id'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: 'x'.repeat(20_000) }), 413, 'body_too_large'],
      [post(`/agents/slow/runs/${runId}/interject`, { message: [{ type: 'tool-call', toolCallId: 'a', toolName: 'b', input: {} }] }), 400, 'invalid_message'],
      [post(`/agents/slow/runs/${runId}/cancel`, { reason: 7 }), 400, 'invalid_reason'],
      [post(`/agents/slow/runs/${runId}/cancel`, { reason: 'Two\nlines' }), 400, 'invalid_reason'],
      [post('/agents/slow/runs', { input: 'wait 1', detach: 'yes' }), 400, 'invalid_detach'],
    ];
    for (const [pending, status, code] of refusals) {
      const answer = await pending;
      expect({ status: answer.status, code: ((await answer.json()) as { error: { code: string } }).error.code }).toEqual({ status, code });
    }
    // The client goes away from a run that is not detached: the run is cancelled (noticed at the next heartbeat).
    await reader.close();
    const events = await finished(runId);
    expect(events.at(-1)).toMatchObject({ type: 'run-cancel', outcome: 'cancelled', error: { name: 'CancelledError', message: 'The client went away' } });
  }, 60_000);

  it('keeps a detached run working after its client disconnects, bounded by the run deadline', async () => {
    const detached = await post('/agents/slow/runs', { input: 'wait 1000', detach: true });
    expect(detached.status).toBe(202);
    const { runId, state } = (await detached.json()) as { runId: string; state: string };
    expect(state).toBe('running');
    expect((await finished(runId)).at(-1)).toMatchObject({ type: 'run-stop', outcome: 'completed', response: 'Finished after 1000 ms.' });

    // A streamed detached run whose client closes the stream right away still finishes.
    const streamed = await stream('wait 800', { detach: true });
    const streamedId = streamed.headers.get('x-ghostlight-run-id')!;
    await sseReader(streamed).close();
    expect((await finished(streamedId)).at(-1)).toMatchObject({ type: 'run-stop', response: 'Finished after 800 ms.' });

    // Past the app's runTimeoutMs (10 s) a detached run ends partial, with nobody listening.
    const overdue = (await (await post('/agents/slow/runs', { input: 'wait 120000', detach: true })).json()) as { runId: string };
    expect((await finished(overdue.runId)).at(-1)).toMatchObject({ type: 'run-partial', outcome: 'partial' });
  }, 60_000);

  it('serves a finished run after a restart, and finishes a run that was working during the restart as failed with the reason', async () => {
    const done = (await (await post('/agents/slow/runs', { input: 'wait 10' })).json()) as { runId: string; outcome: string };
    expect(done.outcome).toBe('completed');
    const before = await readAll(done.runId);
    const working = (await (await post('/agents/slow/runs', { input: 'wait 120000', detach: true })).json()) as { runId: string };
    const reader = sseReader(await fetch(`${dev!.origin}/agents/slow/runs/${working.runId}/events`));
    const seen = await reader.untilType('tool-start');
    await reader.close();

    await dev!.stop();
    await start();

    expect(await readAll(done.runId)).toEqual(before);
    expect(await readAll(done.runId, { 'last-event-id': '2' })).toEqual(before.slice(3));
    const after = await readAll(working.runId);
    expect(after.slice(0, seen.length)).toEqual(seen);
    expect(after.at(-1)).toMatchObject({
      type: 'run-error',
      outcome: 'failed',
      sequence: after.length - 1,
      error: { name: 'RunEvictedError', message: RUN_EVICTED_MESSAGE },
    });
    const interjected = await post(`/agents/slow/runs/${working.runId}/interject`, { message: 'Still there?' });
    expect(interjected.status).toBe(409);
    const summary = await post(`/agents/slow/runs/${working.runId}/cancel`, {});
    expect(await summary.json()).toEqual({ runId: working.runId, state: 'finished' });
    expect((await fetch(`${dev!.origin}/agents/slow/runs/${working.runId}/events`, { headers: { 'x-actor': 'eve' } })).status).toBe(404);
  }, 120_000);
});
