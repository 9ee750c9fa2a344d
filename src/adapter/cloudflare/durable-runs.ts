import type { RunSummary } from '../../agent/run.ts';
import type { GhostlightEvent } from '../../events/events.ts';
import { ConfigurationError } from '../../error/configuration-error.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CancelAnswer, InterjectRequest, QueuedInterjection, RunHost, RunHostRef, RunHostStart } from '../../http/run-host.ts';
import type { InterjectionReply } from '../../agent/interjections.ts';
import type { DurableObjectNamespaceLike } from './durable-object-types.ts';
import { readNdjson } from './ndjson.ts';

/**
 * Hosts each run of `POST /agents/:name/runs` in its own Durable Object (the
 * class `defineRunDurableObject` returns), named after the actor, the agent
 * and the run id, so the run and its stored event log are reachable from
 * every isolate and survive a restart: `GET /runs/:runId/events` resumes from
 * `Last-Event-ID` anywhere, and interject and cancel reach the live run.
 *
 * @example
 * // wrangler.toml: [[durable_objects.bindings]] name = "RUNS", class_name = "RunDurableObject"
 * const app = createAgentApp({ agents, auth, sessions, runs: durableRuns(env.RUNS) });
 */
export function durableRuns(namespace: DurableObjectNamespaceLike): RunHost {
  if (!namespace || typeof namespace.idFromName !== 'function') {
    throw new ConfigurationError('durableRuns needs a Durable Object namespace binding (env.RUNS) whose class is defineRunDurableObject(...)');
  }
  async function call(ref: RunHostRef, operation: string, body: object): Promise<Response> {
    const stub = namespace.get(namespace.idFromName(JSON.stringify([ref.actorId, ref.agent, ref.runId])) as never);
    let response: Response;
    try {
      response = await stub.fetch(`https://run.internal/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, runId: ref.runId, agent: ref.agent, actorId: ref.actorId }),
      });
    } catch {
      throw new HttpError(503, 'run_unavailable', "The run's Durable Object could not be reached; please retry");
    }
    if (response.ok) return response;
    const answer = (await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown } } | undefined;
    const { code, message } = answer?.error ?? {};
    if (typeof code === 'string' && typeof message === 'string') throw new HttpError(response.status, code, message);
    throw new HttpError(502, 'run_unavailable', `The run's Durable Object answered ${response.status}`);
  }
  const events = (response: Response) => readNdjson(response) as AsyncGenerator<GhostlightEvent>;
  return {
    version: 'run-host-v1',
    start: async (start: RunHostStart) => events(await call(start, 'start', start)),
    result: async (start: RunHostStart) => (await (await call(start, 'result', start)).json()) as RunSummary,
    events: async (ref: RunHostRef, from: number) => events(await call(ref, 'events', { from })),
    interject: async (ref: RunHostRef, request: InterjectRequest) => (await (await call(ref, 'interject', request)).json()) as InterjectionReply | QueuedInterjection,
    // `message` is the run's CancelledError message, made by the cancel route; the wire field keeps its name.
    cancel: async (ref: RunHostRef, message: string) => (await (await call(ref, 'cancel', { reason: message })).json()) as CancelAnswer,
  };
}
