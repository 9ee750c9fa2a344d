import type { ModelMessage } from 'ai';
import type { RunStream } from '../agent/agent.ts';
import { interject } from '../agent/interjections.ts';
import type { Run } from '../agent/run.ts';
import { AgentInterjectionError } from '../error/agent-interjection-error.ts';
import { CancelledError, CleanupError } from '../error/control-errors.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { EventPayload, GhostlightEvent, SubagentEventName, SubagentEventPayload, SubagentStatus } from '../events/events.ts';
import { StructuredResultError } from '../structured/structured-result-error.ts';
import type { Invocation } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import { raceAbort, throwIfAborted } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import type { JsonObject } from '../util/json.ts';
import { AgentPathError, childPath } from './agent-path.ts';
import { Capacity, ChangeSignal } from './capacity.ts';
import { decodeCursor, encodeCursor } from './list-cursor.ts';
import { progressText } from './progress-text.ts';
import type { SubagentKind } from './subagent-declaration.ts';
import type { SubagentLimits } from './subagent-limits.ts';
import { compareNewest } from './subagent-persistence.ts';
import type { RegistryRecord, SubagentPersistence } from './subagent-persistence.ts';

/** `sync` waits for the turn's response in the same call; `async` returns at once. */
export type SubagentMode = 'sync' | 'async';

/** A tool call of the parent, as the manager needs it. */
export interface SubagentCall {
  /** The parent's tool call id (recorded on the turn it queues). */
  readonly toolCallId: string;
  /** Stops a sync wait (the parent run's signal). */
  readonly signal: AbortSignal;
}

/** A model-facing result (snake_case JSON, as the tool schemas are). */
export type SubagentResult = Record<string, unknown>;

interface Exchange {
  readonly message: string;
  response: string | undefined;
  readonly settled: Promise<void>;
  settle(): void;
}

interface Turn {
  readonly number: number;
  readonly message: string;
  readonly parentToolCallId: string | undefined;
  readonly exchanges: Exchange[];
  readonly result: Promise<SubagentResult>;
  resolve(result: SubagentResult): void;
  resolved: boolean;
}

interface Identity {
  readonly subagentId: string;
  readonly conversationId: string;
  readonly kind: SubagentKind;
  readonly durable: boolean;
  readonly resumed: boolean;
  /** Restored identities load their conversation on first use. */
  record: RegistryRecord | undefined;
  updatedAt: string;
  committedCount: number;
  commitSlot: 0 | 1;
  history: readonly ModelMessage[];
  state: JsonObject;
  readonly queue: Turn[];
  status: SubagentStatus;
  nextTurn: number;
  current: Turn | undefined;
  stream: RunStream | undefined;
  latestTurn: number | undefined;
  latest: { response: unknown; turn: number; truncated: boolean } | undefined;
  latestError: string | undefined;
  progressMessage: string | undefined;
  progressSequence: number;
  worker: Promise<void> | undefined;
}

/** What the manager needs from the parent run. */
export interface SubagentManagerOptions {
  readonly kinds: readonly SubagentKind[];
  readonly limits: SubagentLimits;
  /** The parent's invocation: its identity, context and deadline pass to every child turn. */
  readonly invocation: Invocation;
  /** The parent run's signal: its cancellation and deadline reach every child. */
  readonly signal: AbortSignal;
  /** The parent's own agent path (`/root` for a top-level run). */
  readonly parentPath: string;
  /** Writes to the parent run's log. */
  readonly emit: (event: EventPayload) => void;
  /** Where durable kinds persist, when the parent run has a session store. */
  readonly persistence?: SubagentPersistence | undefined;
  /** Identities registered by earlier runs of the parent conversation. */
  readonly restored?: readonly RegistryRecord[] | undefined;
  /** The parent's `agent` operation, when the run is instrumented: each child turn is a `subagent` operation in it. */
  readonly operation?: Operation | undefined;
}

const FINISHED: readonly SubagentStatus[] = ['idle', 'failed', 'cancelled'];

/**
 * The subagents of one parent run (SPEC A14): bounded concurrent child turns,
 * FIFO follow-ups per identity, interjections at the child's next model
 * boundary, long-poll waits, newest-first listing, durable conversations and
 * cooperative, bounded close. Every model-facing answer is a plain JSON
 * value; expected failures are `ToolError`s the model can read.
 */
export class SubagentManager {
  readonly #kinds: ReadonlyMap<string, SubagentKind>;
  readonly #limits: SubagentLimits;
  readonly #options: SubagentManagerOptions;
  readonly #controller = new AbortController();
  readonly #capacity: Capacity;
  readonly #changes = new ChangeSignal();
  readonly #identities = new Map<string, Identity>();
  readonly #detach: () => void;
  #spawned = 0;
  #turns = 0;
  #closed = false;
  #quiet = false;
  #closing: Promise<void> | undefined;

  constructor(options: SubagentManagerOptions) {
    this.#options = options;
    this.#limits = options.limits;
    this.#kinds = new Map(options.kinds.map((kind) => [kind.kind, kind]));
    this.#capacity = new Capacity(options.limits.maxConcurrent);
    const parent = options.signal;
    const onAbort = () => this.#controller.abort(parent.reason);
    if (parent.aborted) onAbort();
    else parent.addEventListener('abort', onAbort, { once: true });
    this.#detach = () => parent.removeEventListener('abort', onAbort);
    for (const record of (options.restored ?? []).slice(0, options.limits.maxIdentities)) {
      const kind = this.#kinds.get(record.kind);
      if (!kind?.persist) continue;
      this.#identities.set(record.subagentId, this.#identity(record.subagentId, record.conversationId, kind, record));
    }
  }

  /** The kinds this run may spawn, in declaration order. */
  get kinds(): readonly SubagentKind[] {
    return [...this.#kinds.values()];
  }

  /** Creates an identity for an independent task and queues it as the identity's first turn. */
  async spawn(input: { kind: string; taskName: string; task: string; mode: SubagentMode }, call: SubagentCall): Promise<SubagentResult> {
    checkMode(input.mode);
    this.#ensureOpen();
    const kind = this.#kinds.get(input.kind);
    if (!kind) throw new ToolError(`Unknown subagent kind: ${input.kind}`);
    if (this.#spawned >= this.#limits.maxIdentities) {
      return { status: 'capacity_reached', limit: this.#limits.maxIdentities, message: 'This run has reached its subagent identity limit.' };
    }
    const rejection = this.#rejectTurn(input.task, undefined);
    if (rejection) return rejection;
    const subagentId = this.#pathFor(input.taskName);
    this.#spawned++;
    const identity = this.#identity(subagentId, randomId(), kind, undefined);
    this.#identities.set(subagentId, identity);
    const { turn, snapshot } = this.#enqueue(identity, input.task, 'spawned', call.toolCallId);
    if (input.mode === 'async') return { status: 'working', subagent: snapshot };
    return raceAbort(turn.result, call.signal);
  }

  /** Queues a follow-up turn for an identity (restoring a persisted one first); it runs after the current turn. */
  async sendMessage(input: { subagentId: string; message: string; mode: SubagentMode }, call: SubagentCall): Promise<SubagentResult> {
    checkMode(input.mode);
    this.#ensureOpen();
    const identity = this.#fetch(input.subagentId);
    await this.#restore(identity);
    this.#ensureOpen();
    if (identity.status === 'failed' || identity.status === 'cancelled') {
      throw new ToolError(`Subagent ${JSON.stringify(identity.subagentId)} is ${identity.status}; spawn a new identity.`);
    }
    const rejection = this.#rejectTurn(input.message, identity);
    if (rejection) return rejection;
    const { turn, snapshot } = this.#enqueue(identity, input.message, 'message_queued', call.toolCallId);
    if (input.mode === 'async') return { status: 'working', subagent: snapshot };
    return raceAbort(turn.result, call.signal);
  }

  /** Delivers a message to a running turn at the child's next model boundary and answers with that model response. */
  async interject(input: { subagentId: string; message: string }, call: SubagentCall): Promise<SubagentResult> {
    const { message } = input;
    if (typeof message !== 'string') throw new ToolError('Subagent messages must be strings.');
    if (message.length > this.#limits.maxMessageChars) throw new ToolError(`Subagent messages cannot exceed ${this.#limits.maxMessageChars} characters.`);
    this.#ensureOpen();
    const identity = this.#fetch(input.subagentId);
    const turn = identity.current;
    const stream = identity.stream;
    const quoted = JSON.stringify(identity.subagentId);
    if (identity.status !== 'running' || !turn || !stream) throw new ToolError(`Subagent ${quoted} is not currently running.`);
    if (turn.exchanges.length >= this.#limits.maxQueuedTurns) throw new ToolError(`Subagent ${quoted} has reached its interject limit.`);
    const used = turn.exchanges.reduce((sum, exchange) => sum + exchange.message.length, 0);
    if (used + message.length > this.#limits.maxMessageChars) {
      throw new ToolError(`Subagent interjection messages cannot exceed ${this.#limits.maxMessageChars} total characters.`);
    }
    const exchange = createExchange(message);
    turn.exchanges.push(exchange);
    let reply;
    try {
      reply = await interject(stream, message, { signal: call.signal });
    } catch (error) {
      turn.exchanges.splice(turn.exchanges.indexOf(exchange), 1);
      exchange.settle();
      if (AgentInterjectionError.isInstance(error)) throw new ToolError(error.message);
      throw error;
    }
    const max = this.#limits.maxResponseChars;
    const truncated = reply.text.length > max;
    const response = truncated ? reply.text.slice(0, max) : reply.text;
    const otherChars = turn.exchanges.reduce((sum, other) => sum + (other === exchange ? 0 : (other.response?.length ?? 0)), 0);
    exchange.response = response.slice(0, Math.max(0, max - otherChars));
    exchange.settle();
    return {
      status: 'interjection_delivered',
      subagent_id: identity.subagentId,
      kind: identity.kind.kind,
      subagent: this.#snapshot(identity, { response: true, progress: true }),
      turn: turn.number,
      response,
      response_disposition: reply.toolCalls ? 'text_with_tool_calls' : 'text_only',
      ...(truncated ? { response_truncated: true } : {}),
    };
  }

  /**
   * Watches the selected identities (all active ones when omitted) until each
   * has finished or the wait window passes: `finished`, or `still_working`,
   * which is a normal answer and stops nothing.
   */
  async wait(input: { subagentIds?: readonly string[] | undefined }, call: SubagentCall): Promise<SubagentResult> {
    this.#ensureOpen();
    const identities = this.#selected(input.subagentIds);
    if (identities.length === 0) return { status: 'finished', subagents: [] };
    const until = Date.now() + this.#limits.waitTimeoutMs;
    const done = () => identities.every((identity) => FINISHED.includes(identity.status));
    while (!done()) {
      throwIfAborted(call.signal);
      const remaining = until - Date.now();
      if (remaining <= 0) break;
      await this.#changes.next(remaining, call.signal);
    }
    return {
      status: done() ? 'finished' : 'still_working',
      subagents: identities.map((identity) => this.#snapshot(identity, { response: true, progress: true })),
    };
  }

  /** Lists active and persisted identities newest first, without restoring any. */
  list(input: { kind?: string | undefined; limit?: number | undefined; cursor?: string | undefined }): SubagentResult {
    const limit = input.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ToolError('limit must be between 1 and 100');
    if (input.kind !== undefined && !this.#kinds.has(input.kind)) throw new ToolError(`Unknown subagent kind: ${input.kind}`);
    let identities = [...this.#identities.values()]
      .filter((identity) => input.kind === undefined || identity.kind.kind === input.kind)
      .sort((left, right) => compareNewest(left.updatedAt, left.subagentId, right.updatedAt, right.subagentId));
    if (input.cursor !== undefined && input.cursor !== '') {
      const [at, id] = decodeCursor(input.cursor);
      identities = identities.filter((identity) => compareNewest(identity.updatedAt, identity.subagentId, at, id) > 0);
    }
    const page = identities.slice(0, limit);
    const last = page.at(-1);
    return {
      status: 'ok',
      subagents: page.map((identity) => this.#snapshot(identity, { response: false, progress: true })),
      ...(identities.length > page.length && last ? { next_cursor: encodeCursor(last.updatedAt, last.subagentId) } : {}),
    };
  }

  /**
   * Cancels running and queued turns, then waits for every child to stop, at
   * most `closeTimeoutMs`; a child still running after that is a
   * `CleanupError` (the run reports it). Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    this.#detach();
    for (const identity of this.#identities.values()) {
      if (identity.status === 'idle' || identity.status === 'failed' || identity.status === 'cancelled' || identity.status === 'persisting') continue;
      const turn = identity.current;
      identity.status = 'cancelled';
      identity.current = undefined;
      identity.progressMessage = undefined;
      if (turn) settle(turn, this.#cancelled(identity, turn));
      this.#cancelQueued(identity);
      this.#observe('cancelled', identity, turn);
    }
    const workers = [...this.#identities.values()].flatMap((identity) => (identity.worker ? [identity.worker] : []));
    this.#changes.notify();
    if (workers.length === 0) {
      this.#quiet = true;
      return;
    }
    this.#controller.abort(new CancelledError({ message: 'The subagents were closed with their parent run' }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = await Promise.race([
      Promise.allSettled(workers).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#limits.closeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.#quiet = true;
    if (!stopped) {
      const running = [...this.#identities.values()].filter((identity) => identity.worker !== undefined).length;
      const seconds = this.#limits.closeTimeoutMs / 1000;
      throw new CleanupError({
        errors: [new Error(`${running} subagent worker(s) did not stop within ${seconds} seconds`)],
        message: `${running} subagent worker(s) did not stop within ${seconds} seconds`,
      });
    }
  }

  #identity(subagentId: string, conversationId: string, kind: SubagentKind, record: RegistryRecord | undefined): Identity {
    return {
      subagentId,
      conversationId,
      kind,
      durable: kind.persist && this.#options.persistence !== undefined,
      resumed: record !== undefined,
      record,
      updatedAt: record?.updatedAt ?? new Date().toISOString(),
      committedCount: record?.messageCount ?? 0,
      commitSlot: record?.commitSlot ?? 1,
      history: [],
      state: {},
      queue: [],
      status: 'idle',
      nextTurn: (record?.latestTurn ?? 0) + 1,
      current: undefined,
      stream: undefined,
      latestTurn: record?.latestTurn,
      latest: undefined,
      latestError: undefined,
      progressMessage: undefined,
      progressSequence: 0,
      worker: undefined,
    };
  }

  #pathFor(taskName: string): string {
    let path: string;
    try {
      path = childPath(this.#options.parentPath, taskName);
    } catch (error) {
      if (error instanceof AgentPathError) throw new ToolError(error.message);
      throw error;
    }
    if (this.#identities.has(path)) throw new ToolError(`Agent path ${JSON.stringify(path)} already exists; choose a different task_name.`);
    return path;
  }

  #rejectTurn(message: unknown, identity: Identity | undefined): SubagentResult | undefined {
    if (typeof message !== 'string') return { status: 'invalid_request', message: 'Subagent messages must be strings.' };
    if (message.length > this.#limits.maxMessageChars) {
      return { status: 'invalid_request', message: `Subagent messages cannot exceed ${this.#limits.maxMessageChars} characters.` };
    }
    if (this.#turns >= this.#limits.maxTurns) {
      return { status: 'capacity_reached', limit: this.#limits.maxTurns, message: 'This run has reached its subagent turn limit.' };
    }
    if (identity && identity.queue.length >= this.#limits.maxQueuedTurns) {
      return {
        status: 'capacity_reached',
        limit: this.#limits.maxQueuedTurns,
        message: `Subagent ${JSON.stringify(identity.subagentId)} has reached its queued turn limit.`,
        subagent: this.#snapshot(identity, { response: false, progress: false }),
      };
    }
    return undefined;
  }

  #enqueue(identity: Identity, message: string, event: SubagentEventName, parentToolCallId: string | undefined): { turn: Turn; snapshot: SubagentResult } {
    const turn = createTurn(identity.nextTurn++, message, parentToolCallId);
    this.#turns++;
    identity.queue.push(turn);
    if (identity.status !== 'running') identity.status = 'queued';
    this.#observe(event, identity, turn);
    const snapshot = this.#snapshot(identity, { response: false, progress: false });
    identity.worker ??= this.#work(identity);
    this.#changes.notify();
    return { turn, snapshot };
  }

  /** Runs an identity's queued turns one after another, each in a concurrency slot. */
  async #work(identity: Identity): Promise<void> {
    try {
      // Let the caller finish enqueueing before the first turn starts.
      await Promise.resolve();
      for (;;) {
        if (this.#closed) return this.#cancelQueued(identity);
        const turn = identity.queue.shift();
        if (!turn) return;
        identity.current = turn;
        identity.status = 'queued';
        let release: (() => void) | undefined;
        try {
          release = await this.#capacity.acquire(this.#controller.signal);
        } catch {
          this.#cancelUnrun(identity, turn);
          return;
        }
        try {
          if (this.#closed || identity.current !== turn) return;
          if (!(await this.#runTurn(identity, turn))) return;
        } finally {
          release();
        }
      }
    } finally {
      identity.worker = undefined;
      this.#changes.notify();
    }
  }

  /** Runs one turn as a child run, reported as a `subagent` operation; false when the identity cannot go on. */
  async #runTurn(identity: Identity, turn: Turn): Promise<boolean> {
    const operation = this.#options.operation?.start('subagent', {
      agent: identity.kind.agent.name,
      subagentId: identity.subagentId,
      kind: identity.kind.kind,
      turn: turn.number,
      ...(turn.parentToolCallId !== undefined ? { parentToolCallId: turn.parentToolCallId } : {}),
    });
    try {
      return await this.#runChild(identity, turn, operation);
    } finally {
      operation?.finish({ status: identity.status });
    }
  }

  async #runChild(identity: Identity, turn: Turn, operation: Operation | undefined): Promise<boolean> {
    const agent = identity.kind.agent;
    const { invocation } = this.#options;
    identity.status = 'running';
    identity.progressMessage = undefined;
    identity.progressSequence++;
    let stream: RunStream;
    try {
      const nests = agent.definition.capabilities?.some((capability) => capability.name === 'subagents') === true;
      stream = agent.stream(turn.message, {
        actorId: invocation.actorId,
        context: { ...invocation.context },
        history: identity.history,
        state: identity.state,
        signal: this.#controller.signal,
        deadline: invocation.deadline,
        ...(operation ? { parentOperation: operation } : {}),
        ...(nests ? { subagentPath: identity.subagentId } : {}),
      });
    } catch (error) {
      this.#failTurn(identity, turn, error);
      return false;
    }
    identity.stream = stream;
    this.#observe('turn_started', identity, turn, { subagentRunId: stream.runId });
    this.#changes.notify();
    let run: Run;
    try {
      for await (const event of stream) this.#capture(identity, turn, event);
      run = await stream.run;
    } catch (error) {
      identity.stream = undefined;
      if (identity.current === turn) this.#failTurn(identity, turn, error);
      return false;
    }
    identity.stream = undefined;
    if (identity.current !== turn) return false;
    if (run.outcome === 'completed') return this.#finishTurn(identity, turn, run);
    if (run.outcome === 'cancelled') this.#cancelUnrun(identity, turn);
    else this.#failTurn(identity, turn, run.error);
    return false;
  }

  async #finishTurn(identity: Identity, turn: Turn, run: Run): Promise<boolean> {
    const max = this.#limits.maxResponseChars;
    const serialized = typeof run.output === 'string' ? run.output : JSON.stringify(run.output ?? null);
    if (identity.kind.structured && serialized.length > max) {
      this.#failTurn(identity, turn, new StructuredResultError('The structured subagent result exceeds the response limit', {
        schemaName: identity.kind.kind,
        validationErrors: [`result exceeds ${max} characters`],
      }));
      return false;
    }
    const truncated = serialized.length > max;
    const response: unknown = truncated ? serialized.slice(0, max) : identity.kind.structured ? run.output : serialized;
    await Promise.all(turn.exchanges.map((exchange) => exchange.settled));
    if (identity.current !== turn) return false;
    if (identity.durable) {
      identity.status = 'persisting';
      const messages: ModelMessage[] = [{ role: 'user', content: turn.message }];
      for (const exchange of turn.exchanges) {
        if (exchange.response === undefined) continue;
        messages.push({ role: 'user', content: exchange.message }, { role: 'assistant', content: exchange.response });
      }
      messages.push({ role: 'assistant', content: truncated ? (response as string) : serialized });
      const updatedAt = new Date().toISOString();
      try {
        const record = await this.#options.persistence!.commit({
          subagentId: identity.subagentId,
          conversationId: identity.conversationId,
          kind: identity.kind.kind,
          turn: turn.number,
          updatedAt,
          committedCount: identity.committedCount,
          commitSlot: identity.commitSlot,
          messages,
          state: run.state,
          retain: { kinds: new Set(this.kinds.filter((kind) => kind.persist).map((kind) => kind.kind)), max: this.#limits.maxIdentities },
        });
        identity.committedCount = record.messageCount;
        identity.commitSlot = record.commitSlot;
        identity.updatedAt = updatedAt;
      } catch (error) {
        this.#failTurn(identity, turn, error);
        return false;
      }
    } else {
      identity.updatedAt = new Date().toISOString();
    }
    identity.history = run.messages;
    identity.state = run.state;
    identity.latestTurn = turn.number;
    identity.latest = { response, turn: turn.number, truncated };
    identity.latestError = undefined;
    identity.progressMessage = undefined;
    identity.current = undefined;
    identity.status = identity.queue.length > 0 && !this.#closed ? 'queued' : 'idle';
    settle(turn, {
      status: 'finished',
      subagent_id: identity.subagentId,
      kind: identity.kind.kind,
      turn: turn.number,
      response,
      ...(truncated ? { response_truncated: true } : {}),
    });
    this.#observe('turn_finished', identity, turn);
    this.#changes.notify();
    return true;
  }

  #failTurn(identity: Identity, turn: Turn, error: unknown): void {
    if (identity.status === 'cancelled') return;
    identity.latestTurn = turn.number;
    identity.latestError = 'Subagent turn failed.';
    identity.progressMessage = undefined;
    identity.current = undefined;
    identity.status = 'failed';
    settle(turn, { status: 'failed', subagent_id: identity.subagentId, kind: identity.kind.kind, turn: turn.number, error: identity.latestError });
    this.#observe('turn_failed', identity, turn, { errorType: errorName(error) });
    for (const queued of identity.queue.splice(0)) {
      settle(queued, { status: 'failed', subagent_id: identity.subagentId, kind: identity.kind.kind, turn: queued.number, error: 'A previous turn failed; spawn a new identity.' });
      this.#observe('turn_failed', identity, queued);
    }
    this.#changes.notify();
  }

  #cancelUnrun(identity: Identity, turn: Turn): void {
    const newly = identity.status !== 'cancelled';
    settle(turn, this.#cancelled(identity, turn));
    identity.latestTurn = turn.number;
    identity.progressMessage = undefined;
    identity.current = undefined;
    identity.status = 'cancelled';
    this.#cancelQueued(identity);
    if (newly) this.#observe('cancelled', identity, turn);
    this.#changes.notify();
  }

  #cancelQueued(identity: Identity): void {
    for (const turn of identity.queue.splice(0)) {
      settle(turn, this.#cancelled(identity, turn));
      this.#observe('cancelled', identity, turn);
    }
  }

  #cancelled(identity: Identity, turn: Turn): SubagentResult {
    return { status: 'cancelled', subagent_id: identity.subagentId, kind: identity.kind.kind, turn: turn.number, error: 'Subagent turn was cancelled.' };
  }

  /** Turns a child's events into progress: tool calls, model responses, its own subagents' activity. */
  #capture(identity: Identity, turn: Turn, event: GhostlightEvent): void {
    if (identity.current !== turn) return;
    switch (event.type) {
      case 'tool-start':
        identity.progressSequence++;
        this.#observe('tool_started', identity, turn, { toolCallId: event.toolCallId, toolName: event.toolName });
        break;
      case 'tool-stop':
        identity.progressSequence++;
        this.#observe('tool_finished', identity, turn, { toolCallId: event.toolCallId, toolName: event.toolName, toolStatus: event.status });
        break;
      case 'message-stop': {
        const progress = event.finishReason === 'tool-calls' ? progressText(event.text) : '';
        if (progress.length > 0) identity.progressMessage = progress;
        identity.progressSequence++;
        this.#observe('activity', identity, turn);
        break;
      }
      case 'subagent':
      case 'invocation-stop':
        identity.progressSequence++;
        this.#observe('activity', identity, turn);
        break;
      default:
        return;
    }
    this.#changes.notify();
  }

  async #restore(identity: Identity): Promise<void> {
    const record = identity.record;
    if (!record) return;
    try {
      const restored = await this.#options.persistence!.restore(record);
      if (identity.record !== record) return;
      identity.history = restored.history;
      identity.state = restored.state;
      identity.record = undefined;
    } catch (error) {
      this.#emit({ type: 'subagent', event: 'factory_failed', subagentId: identity.subagentId, kind: identity.kind.kind, status: 'failed', errorType: errorName(error) });
      throw new ToolError('Subagent could not be restored.', { cause: error });
    }
  }

  #selected(subagentIds: readonly string[] | undefined): Identity[] {
    if (subagentIds === undefined) return [...this.#identities.values()].filter((identity) => identity.record === undefined);
    if (new Set(subagentIds).size !== subagentIds.length) throw new ToolError('subagent_ids must be unique');
    return subagentIds.map((subagentId) => {
      const identity = this.#fetch(subagentId);
      if (identity.record !== undefined) throw new ToolError(`Subagent ${JSON.stringify(subagentId)} is not active in this invocation.`);
      return identity;
    });
  }

  #fetch(subagentId: string): Identity {
    const identity = this.#identities.get(subagentId);
    if (!identity) throw new ToolError(`Unknown subagent id: ${subagentId}`);
    return identity;
  }

  #ensureOpen(): void {
    if (this.#closed) throw new ToolError('Subagent manager is closed');
  }

  /** The model-facing view of an identity. */
  #snapshot(identity: Identity, include: { response: boolean; progress: boolean }): SubagentResult {
    const value: SubagentResult = {
      subagent_id: identity.subagentId,
      conversation_id: identity.conversationId,
      kind: identity.kind.kind,
      status: identity.status,
      current_turn: identity.current?.number ?? null,
      latest_turn: identity.latestTurn ?? null,
      queued_turns: identity.queue.length,
    };
    if (identity.resumed) value.resumed = true;
    const latest = identity.latest;
    if (include.response && latest) {
      if (identity.status === 'idle' && latest.turn === identity.latestTurn) {
        value.response = latest.response;
        value.response_turn = latest.turn;
        if (latest.truncated) value.response_truncated = true;
      } else {
        value.previous_response = latest.response;
        value.previous_response_turn = latest.turn;
        if (latest.truncated) value.previous_response_truncated = true;
      }
    }
    if (include.progress && identity.progressSequence > 0 && (identity.status === 'queued' || identity.status === 'running')) {
      value.progress = { sequence: identity.progressSequence, ...(identity.progressMessage ? { message: identity.progressMessage } : {}) };
    }
    if (identity.latestError) value.error = identity.latestError;
    return value;
  }

  #observe(event: SubagentEventName, identity: Identity, turn: Turn | undefined, extra: Partial<SubagentEventPayload> = {}): void {
    this.#emit({
      type: 'subagent',
      event,
      subagentId: identity.subagentId,
      kind: identity.kind.kind,
      status: identity.status,
      conversationId: identity.conversationId,
      ...(identity.resumed ? { resumed: true } : {}),
      ...(turn ? { turn: turn.number } : {}),
      ...(turn?.parentToolCallId !== undefined ? { parentToolCallId: turn.parentToolCallId } : {}),
      ...extra,
    });
  }

  /** Writes to the parent's log, never after close finished (the log may have ended) and never throwing into a child. */
  #emit(event: SubagentEventPayload): void {
    if (this.#quiet) return;
    try {
      this.#options.emit(event);
    } catch {
      // The parent's log ended; a late lifecycle event has nowhere to go.
    }
  }
}

function checkMode(mode: unknown): asserts mode is SubagentMode {
  if (mode !== 'sync' && mode !== 'async') throw new ToolError("mode must be 'sync' or 'async'");
}

function createTurn(number: number, message: string, parentToolCallId: string | undefined): Turn {
  let resolve!: (result: SubagentResult) => void;
  const result = new Promise<SubagentResult>((onResolve) => {
    resolve = onResolve;
  });
  return { number, message, parentToolCallId, exchanges: [], result, resolve, resolved: false };
}

function settle(turn: Turn, result: SubagentResult): void {
  if (turn.resolved) return;
  turn.resolved = true;
  turn.resolve(result);
}

function createExchange(message: string): Exchange {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { message, response: undefined, settled, settle };
}

function errorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.length > 0 ? name : 'Error';
}
