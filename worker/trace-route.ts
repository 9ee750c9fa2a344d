import type { Hono } from 'hono';
import { Instrumentation, OperationRecorder, traceContextFrom, traceIdOf } from 'ghostlight';
import type { AuthResult } from 'ghostlight/http';

const MAX_TRACES = 1_000;

/**
 * The playground's Trace tab for Worker runs: the app's runs report to an
 * in-memory {@link OperationRecorder} (this isolate only, the most recent
 * 5,000 operations), and `GET /api/traces/:traceId` returns one trace's
 * operations to the actor whose request started it. The first request with a
 * trace id claims it for its actor; another actor reusing it gets a 409, so
 * no one reads another's runs by guessing or replaying a `traceparent`.
 */
export function traceRoutes(app: Hono, auth: (request: Request) => AuthResult | null): Instrumentation {
  const recorder = new OperationRecorder({ limit: 5_000 });
  const owners = new Map<string, string>();
  app.use('/agents/*', async (context, next) => {
    const trace = traceContextFrom(context.req.raw.headers);
    const actor = auth(context.req.raw)?.actorId;
    const traceId = trace && traceIdOf(trace.traceparent);
    if (traceId && actor) {
      const owner = owners.get(traceId);
      if (owner !== undefined && owner !== actor) return context.json({ error: { code: 'trace_in_use', message: 'This trace id belongs to another caller' } }, 409);
      owners.set(traceId, actor);
      if (owners.size > MAX_TRACES) owners.delete(owners.keys().next().value!);
    }
    return next();
  });
  app.get('/api/traces/:traceId', (context) => {
    const actor = auth(context.req.raw)?.actorId;
    if (!actor) return context.json({ error: { code: 'unauthorized', message: 'Authentication required' } }, 401);
    const traceId = context.req.param('traceId');
    if (owners.get(traceId) !== actor) return context.json({ error: { code: 'unknown_trace', message: 'No such trace here' } }, 404);
    return context.json({ traceId, operations: recorder.operations({ traceId }) });
  });
  return new Instrumentation({ subscribers: [recorder] });
}
