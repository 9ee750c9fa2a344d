import type { Agent } from '../../agent/agent.ts';
import type { RunSummary } from '../../agent/run.ts';
import { EMPTY_USAGE } from '../../agent/usage.ts';
import { ConfigurationError } from '../../error/configuration-error.ts';
import { cancelledMessage } from '../../error/control-errors.ts';
import type { ErrorInfo, GhostlightEvent } from '../../events/events.ts';
import { HttpError } from '../../http/http-error.ts';
import { interjectionHttpError, interjectLocal, unknownRun } from '../../http/run-control.ts';
import type { InterjectRequest, RunHostRef, RunHostStart } from '../../http/run-host.ts';
import { parseRunRequest } from '../../http/run-request.ts';
import { scopedSessionStore } from '../../http/scoped-session-store.ts';
import { startRun } from '../../http/start-run.ts';
import type { StartedRun } from '../../http/start-run.ts';
import type { Instrumentation } from '../../instrumentation/instrumentation.ts';
import type { SessionStore } from '../../session/session-store.ts';
import { ndjsonResponse } from './ndjson.ts';
import { EVENT_PREFIX, RunEventLog } from './run-event-log.ts';
import type { RunLogLimits } from './run-event-log.ts';
import { RunEvictedError } from './run-evicted-error.ts';
import { lastRow, readRows, rowsOf } from './run-storage.ts';
import type { RunDurableObjectState } from './run-storage.ts';

/** What a run object needs to run: the same agents and session store as the app that sends it runs. */
export interface RunDurableObjectSetup {
  /** The agents, by name: those of `createAgentApp` (build both from one function of `env`). */
  readonly agents: readonly Agent[];
  /** The app's session store (`DurableObjectSessionStore`), for runs that name a session. */
  readonly sessions?: SessionStore | undefined;
  /** As `createAgentApp`'s `sessionScope` (default `'agent'`): must match the app's. */
  readonly sessionScope?: 'agent' | 'app' | undefined;
  /** Reports the runs this object hosts. */
  readonly instrumentation?: Instrumentation | undefined;
  /** Bounds of each run's stored event log. */
  readonly limits?: RunLogLimits | undefined;
  /** How long a finished run stays readable before its object deletes it, in milliseconds (default 1 hour). */
  readonly keepMs?: number | undefined;
}

/** The class `defineRunDurableObject` returns: export it from the Worker under the binding's `class_name`. */
export interface RunDurableObjectClass {
  new (state: RunDurableObjectState, env: unknown): RunDurableObjectInstance;
}

/** What the Workers runtime calls on a run object. */
export interface RunDurableObjectInstance {
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}

interface RunMeta {
  readonly runId: string;
  readonly agent: string;
  readonly actorId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly deadlineAt: number;
  state: 'running' | 'finished';
  finishedAt?: number;
}

interface LiveRun {
  readonly started: StartedRun;
  readonly log: RunEventLog;
}

/** How often a running run's object wakes (an alarm), which keeps it in memory and enforces the deadline. */
const WAKE_MS = 30_000;
/** How long past its deadline a run may take to end before its object cancels it. */
const DEADLINE_GRACE_MS = 30_000;
const SAFE_START_FAILURE = 'The run could not start.';

/**
 * Defines the Durable Object class that hosts runs for `durableRuns(env.RUNS)`:
 * one object per run. It runs the agent, stores each event as it is written
 * (`e:<sequence>` rows, bounded by `limits`), answers readers from any isolate
 * from that log, delivers interjections and cancellations to the live run,
 * and keeps the run in memory with an alarm every 30 s until it ends.
 *
 * A run cannot move between isolates: when the object was evicted or
 * restarted mid-run, the next access (or its alarm) finishes the run as
 * `failed` with a `RunEvictedError`; turns the session already saved stay
 * saved, so a new run on that session continues the conversation. A finished
 * run is deleted `keepMs` after it ended.
 *
 * @example
 * // wrangler.toml: [[durable_objects.bindings]] name = "RUNS", class_name = "RunDurableObject"
 * export const RunDurableObject = defineRunDurableObject((env: Env) => ({
 *   agents: [createSupportAgent(env)],
 *   sessions: new DurableObjectSessionStore(env.SESSIONS),
 * }));
 */
export function defineRunDurableObject<ENV = unknown>(setup: (env: ENV) => RunDurableObjectSetup): RunDurableObjectClass {
  if (typeof setup !== 'function') throw new ConfigurationError('defineRunDurableObject needs a function of env returning { agents, sessions? }');
  return class RunDurableObject implements RunDurableObjectInstance {
    readonly #state: RunDurableObjectState;
    readonly #env: ENV;
    #setup: RunDurableObjectSetup | undefined;
    #live: LiveRun | undefined;
    #starting = false;

    constructor(state: RunDurableObjectState, env: unknown) {
      this.#state = state;
      this.#env = env as ENV;
    }

    /** Answers `durableRuns`' requests: `POST /start`, `/result`, `/events`, `/interject`, `/cancel` (JSON errors, never a stack). */
    async fetch(request: Request): Promise<Response> {
      try {
        const operation = new URL(request.url).pathname.slice(1);
        const body = (await request.json()) as RunHostRef & Record<string, unknown>;
        if (operation === 'start' || operation === 'result') return await this.#start(body as unknown as RunHostStart, operation);
        const meta = await this.#meta(body);
        switch (operation) {
          case 'events':
            return this.#events(meta, Number(body.from) || 0);
          case 'interject':
            return Response.json(await this.#interject(body as unknown as InterjectRequest, request.signal));
          case 'cancel':
            return Response.json(this.#cancel(meta, typeof body.reason === 'string' ? body.reason : cancelledMessage()));
          default:
            throw new HttpError(404, 'not_found', 'Unknown run operation');
        }
      } catch (error) {
        const answer = interjectionHttpError(error);
        if (HttpError.isInstance(answer)) return Response.json({ error: { code: answer.code, message: answer.message } }, { status: answer.status });
        console.error('ghostlight: run Durable Object failed', error);
        return Response.json({ error: { code: 'internal_error', message: 'Internal server error' } }, { status: 500 });
      }
    }

    /** Wakes a running run's object every 30 s; finishes an evicted run; cancels one far past its deadline; deletes a finished run after `keepMs`. */
    async alarm(): Promise<void> {
      const meta = await this.#state.storage.get<RunMeta>('meta');
      if (!meta) return;
      const now = Date.now();
      if (meta.state === 'running' && !this.#live) await this.#finishEvicted(meta);
      if (meta.state === 'running') {
        if (now > meta.deadlineAt + DEADLINE_GRACE_MS) this.#live?.started.cancel('The run passed its deadline');
        await this.#state.storage.setAlarm(now + WAKE_MS);
        return;
      }
      const expiresAt = (meta.finishedAt ?? now) + (this.#config().keepMs ?? 3_600_000);
      if (now >= expiresAt) await this.#state.storage.deleteAll();
      else await this.#state.storage.setAlarm(expiresAt);
    }

    #config(): RunDurableObjectSetup {
      return (this.#setup ??= setup(this.#env));
    }

    /** The run's meta row for its own actor and agent; a 404 for anyone else, as for no run at all. An evicted run is finished first. */
    async #meta(ref: RunHostRef): Promise<RunMeta> {
      const meta = await this.#state.storage.get<RunMeta>('meta');
      if (!meta || meta.actorId !== ref.actorId || meta.agent !== ref.agent || meta.runId !== ref.runId) throw unknownRun();
      if (meta.state === 'running' && !this.#live) await this.#finishEvicted(meta);
      return meta;
    }

    /** Starts the run; answers its events as JSON lines (`start`) or, once it finished, its summary (`result`). */
    async #start(start: RunHostStart, answer: 'start' | 'result'): Promise<Response> {
      if (this.#starting || this.#live || (await this.#state.storage.get('meta'))) throw new HttpError(409, 'run_exists', 'A run with this id exists');
      this.#starting = true;
      try {
        const config = this.#config();
        const agent = config.agents.find((candidate) => candidate.name === start.agent);
        if (!agent) throw new HttpError(404, 'unknown_agent', 'The run object has no agent of that name');
        const request = parseRunRequest(start.body as Record<string, unknown>, start.limits);
        const sessions = start.stored && config.sessions ? (config.sessionScope === 'app' ? config.sessions : scopedSessionStore(config.sessions, agent.name)) : undefined;
        const settings = { sessions, runTimeoutMs: Math.max(1, start.deadlineAt - Date.now()), instrumentation: config.instrumentation, runId: start.runId };
        const started = await startRun(agent, request, { actorId: start.actorId, ...(start.context ? { context: start.context } : {}) }, settings, new AbortController().signal, 2_000, start.traceContext);
        const meta: RunMeta = {
          runId: start.runId,
          agent: agent.name,
          actorId: start.actorId,
          sessionId: request.sessionId ?? start.runId,
          startedAt: Date.now(),
          deadlineAt: start.deadlineAt,
          state: 'running',
        };
        const live: LiveRun = { started, log: new RunEventLog(this.#state.storage, config.limits) };
        this.#live = live;
        await this.#state.storage.put({ meta });
        await this.#state.storage.setAlarm(Date.now() + WAKE_MS);
        const done = this.#pump(meta, live);
        if (answer === 'result') return Response.json(await done);
        const reader = new AbortController();
        return ndjsonResponse(live.log.read(0, reader.signal), () => reader.abort());
      } finally {
        this.#starting = false;
      }
    }

    /** Moves the run's events into the log until it ends, then stores the summary and marks the run finished. */
    async #pump(meta: RunMeta, live: LiveRun): Promise<RunSummary> {
      const { started, log } = live;
      let last: GhostlightEvent | undefined;
      try {
        for (let next = await started.events.next(); !next.done; next = await started.events.next()) {
          last = next.value;
          if (!log.append(next.value)) started.cancel("The run's event log reached its limit");
        }
      } catch {
        // A run that could not start after its first event (queued behind its session): end it as failed.
      }
      let summary: RunSummary;
      try {
        summary = (await started.stream.run).toJSON();
      } catch {
        summary = failedSummary(meta, { name: 'RunFailedError', message: SAFE_START_FAILURE });
      }
      if (!log.ended) {
        const error = summary.error ?? { name: 'RunFailedError', message: SAFE_START_FAILURE };
        log.append(terminalFailure(meta, (last?.sequence ?? -1) + 1, error));
      }
      try {
        await log.flushed();
        await this.#finish(meta);
      } catch (error) {
        // Storage failed: this instance still serves the log from memory; once it is gone, the next access finishes the run as evicted.
        console.error('ghostlight: a durable run could not be stored', error);
      }
      return summary;
    }

    async #finish(meta: RunMeta): Promise<void> {
      meta.state = 'finished';
      meta.finishedAt = Date.now();
      // The alarm set at the start (every 30 s) is still due: when it finds the run finished, it schedules the deletion.
      await this.#state.storage.put({ meta });
    }

    /** A run whose object lost it mid-run (eviction, restart): its stored log gets a `run-error` terminal event, and the run is finished as failed. */
    async #finishEvicted(meta: RunMeta): Promise<void> {
      const error = new RunEvictedError();
      const info: ErrorInfo = { name: error.name, message: error.message };
      const last = await lastRow(this.#state.storage, EVENT_PREFIX);
      const lastEvent = last ? (JSON.parse(last.json) as GhostlightEvent) : undefined;
      const ended = lastEvent && ['run-stop', 'run-partial', 'run-cancel', 'run-error'].includes(lastEvent.type);
      if (!ended) {
        const event = terminalFailure(meta, (lastEvent?.sequence ?? -1) + 1, info);
        await this.#state.storage.put(rowsOf(EVENT_PREFIX, event.sequence, JSON.stringify(event)));
      }
      await this.#finish(meta);
    }

    #events(meta: RunMeta, from: number): Response {
      const reader = new AbortController();
      // The instance that runs (or ran) the run has every stored line in memory; any other reads the stored rows.
      if (this.#live) return ndjsonResponse(this.#live.log.read(from, reader.signal), () => reader.abort());
      return ndjsonResponse(storedLines(this.#state, from));
    }

    async #interject(request: InterjectRequest, signal: AbortSignal): Promise<unknown> {
      const live = this.#live;
      if (!live || live.log.ended) throw new HttpError(409, 'not_running', 'Agent is not currently running');
      return interjectLocal(live.started.stream, request, signal);
    }

    /** `message` is the run's `CancelledError` message as the Worker's cancel route made it ("The run was cancelled: <reason>"). */
    #cancel(meta: RunMeta, message: string): { runId: string; state: 'cancelling' | 'finished' } {
      const live = this.#live;
      if (meta.state !== 'running' || !live || live.log.ended) return { runId: meta.runId, state: 'finished' };
      live.started.cancel(message);
      return { runId: meta.runId, state: 'cancelling' };
    }
  };
}

async function* storedLines(state: RunDurableObjectState, from: number): AsyncGenerator<string> {
  for await (const row of readRows(state.storage, EVENT_PREFIX, from)) yield row.json;
}

function terminalFailure(meta: RunMeta, sequence: number, error: ErrorInfo): GhostlightEvent {
  return { type: 'run-error', outcome: 'failed', response: '', error, cleanupFailed: false, runId: meta.runId, sequence, time: Date.now() };
}

function failedSummary(meta: RunMeta, error: ErrorInfo): RunSummary {
  const now = Date.now();
  return {
    runId: meta.runId,
    sessionId: meta.sessionId,
    agent: meta.agent,
    outcome: 'failed',
    response: '',
    output: undefined,
    usage: EMPTY_USAGE,
    error,
    steps: [],
    durationMs: now - meta.startedAt,
  };
}
