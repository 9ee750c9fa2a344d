import type { UserContent, UserModelMessage } from 'ai';
import { AgentInterjectionError } from '../error/agent-interjection-error.ts';
import { DeadlineExceededError, InvocationError } from '../error/control-errors.ts';
import { raceAbort } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { canonicalJson, isPlainObject } from '../util/json.ts';
import type { RunStream } from './agent.ts';
import type { InterjectionBatch, InterjectionPort } from './interjection-port.ts';
import { runExecutions } from './run-streams.ts';

/** The text that opens every interjection the model sees (SPEC A18). */
export const INTERJECTION_PREFIX =
  'Agent interjection:\n\nRespond briefly in ordinary text before any tool calls, then continue the current task unless this interjection asks you to finish.';

/** How many keyed interjections with the same leading `batchKey` one model boundary delivers together. */
export const MAX_INTERJECTION_BATCH = 100;

/** How many distinct interjections one run accepts. */
export const MAX_INTERJECTIONS = 1_000;

/** What an interjection may say: text, or user content parts that are text, images or documents. */
export type InterjectionInput = string | UserContent | UserModelMessage;

/** Options of {@link interject}. */
export interface InterjectOptions {
  /**
   * An idempotency key: the same id with the same input is delivered once and
   * every caller gets the same reply; the same id with other input is an
   * `InvocationError`. Default: a fresh UUID.
   */
  interjectionId?: string | undefined;
  /** Interjections with the same key queued back to back are delivered at one boundary (up to 100). */
  batchKey?: string | undefined;
  /** Stops waiting; an interjection nobody waits for any more is withdrawn if it was not delivered yet. */
  signal?: AbortSignal | undefined;
  /**
   * An absolute time (Date, epoch ms or ISO-8601 text) to stop waiting at: the wait rejects with
   * `DeadlineExceededError` ("The interjection deadline was reached") and, like a cancelled wait,
   * an interjection not delivered yet is withdrawn.
   */
  deadline?: Date | number | string | undefined;
  /**
   * Application metadata (JSON) that governs the run from the boundary that delivers this interjection until
   * another replaces it: hooks and tools read it as `binding.run.interjectionMetadata`, and agents used as tools
   * inherit it as their invocation metadata.
   */
  metadata?: Record<string, unknown> | undefined;
}

/** The model's answer to an interjection: the response that followed it. */
export interface InterjectionReply {
  /** The text of that model response. */
  readonly text: string;
  /** Whether the same response also called tools (the run then goes on with them). */
  readonly toolCalls: boolean;
  /** Every interjection delivered at that boundary (a batch shares one reply). */
  readonly interjectionIds: readonly string[];
  /** The batch key they were delivered under, if any. */
  readonly batchKey: string | undefined;
}

/**
 * Interjects into a running run (SPEC A18): the message reaches the model at
 * the next model boundary as a user message opened by
 * {@link INTERJECTION_PREFIX}, and the promise resolves with that model
 * response (`text`, whether it also called tools, the `interjectionIds` and
 * `batchKey` delivered with it). The run then goes on; a text-only reply can
 * be its final answer. Throws `AgentInterjectionError` once the run has
 * ended, and rejects with it when the run ends first.
 *
 * A function rather than a method of the stream so that a program that never
 * interjects does not bundle the queue.
 *
 * @example
 * const stream = agent.stream('Research the refund policy');
 * const reply = await interject(stream, 'Only the EU policy, please.');
 * console.log(reply.text);
 */
export function interject(stream: RunStream<any>, message: InterjectionInput, options?: InterjectOptions): Promise<InterjectionReply> {
  const execution = runExecutions.get(stream);
  if (!execution) throw new InvocationError('interject needs a run stream from agent.stream');
  return execution.interjections(() => new InterjectionQueue()).enqueue(message, options);
}

interface Ticket {
  readonly id: string;
  readonly key: string;
  readonly batchKey: string | undefined;
  readonly content: Exclude<UserContent, string>;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly reply: Promise<InterjectionReply>;
  resolve(reply: InterjectionReply): void;
  reject(error: unknown): void;
  waiters: number;
}

/**
 * The interjections of one run. Callers `enqueue` at any time while the run
 * runs; the loop takes a batch at each model boundary (`deliver`), answers it
 * with that model response (`resolve`), asks `finish` before ending on a
 * final answer (false: interjections arrived meanwhile, take another turn),
 * and `close`s when the run ends, rejecting whatever was not delivered.
 */
export class InterjectionQueue implements InterjectionPort {
  readonly #queue: Ticket[] = [];
  readonly #tickets = new Map<string, Ticket>();
  #delivered: { batch: InterjectionBatch; tickets: Ticket[] } | undefined;
  #closed = false;

  /** Queues an interjection and resolves with the reply of the model response that follows it. */
  enqueue(input: InterjectionInput, options: InterjectOptions = {}): Promise<InterjectionReply> {
    const content = interjectionContent(input);
    const id = options.interjectionId ?? randomId();
    if (typeof id !== 'string' || id.length === 0) throw new InvocationError('interjectionId must be a non-empty string');
    const batchKey = options.batchKey;
    if (batchKey !== undefined && typeof batchKey !== 'string') throw new InvocationError('batchKey must be a string');
    const metadata = options.metadata;
    if (metadata !== undefined && !isPlainObject(metadata)) throw new InvocationError('interjection metadata must be a plain object');
    if (this.#closed) throw new AgentInterjectionError('Agent is not currently running');
    const key = canonicalJson([content.map(comparable), batchKey ?? null, metadata ?? null]);
    let ticket = this.#tickets.get(id);
    if (ticket) {
      if (ticket.key !== key) throw new InvocationError('interjectionId has already been used with different input');
    } else {
      if (this.#tickets.size >= MAX_INTERJECTIONS) throw new AgentInterjectionError('Agent interjection capacity reached');
      ticket = createTicket(id, key, batchKey, content, metadata === undefined ? undefined : Object.freeze(structuredClone(metadata)));
      this.#tickets.set(id, ticket);
      this.#queue.push(ticket);
    }
    const [signal, done] = waitSignal(options);
    ticket.waiters++;
    return done ? this.#wait(ticket, signal).finally(done) : this.#wait(ticket, signal);
  }

  /** Takes the interjections for this model boundary: the first queued one, and those batched with it. */
  deliver(): InterjectionBatch | undefined {
    if (this.#delivered || this.#queue.length === 0) return undefined;
    const tickets = [this.#queue.shift()!];
    const batchKey = tickets[0]!.batchKey;
    if (batchKey !== undefined) {
      while (tickets.length < MAX_INTERJECTION_BATCH && this.#queue[0]?.batchKey === batchKey) tickets.push(this.#queue.shift()!);
    }
    const metadata = tickets.findLast((ticket) => ticket.metadata !== undefined)?.metadata;
    const batch: InterjectionBatch = {
      interjectionIds: tickets.map((ticket) => ticket.id),
      batchKey,
      ...(metadata ? { metadata } : {}),
      messages: tickets.map((ticket) => ({ role: 'user', content: [{ type: 'text', text: INTERJECTION_PREFIX }, ...ticket.content] })),
    };
    this.#delivered = { batch, tickets };
    return batch;
  }

  /** Answers the delivered batch with the model response that followed it. */
  resolve(batch: InterjectionBatch, response: { text: string; toolCalls: boolean }): void {
    if (this.#delivered?.batch !== batch) return;
    const { tickets } = this.#delivered;
    this.#delivered = undefined;
    const reply: InterjectionReply = Object.freeze({
      text: response.text,
      toolCalls: response.toolCalls,
      interjectionIds: Object.freeze([...batch.interjectionIds]),
      batchKey: batch.batchKey,
    });
    for (const ticket of tickets) ticket.resolve(reply);
  }

  /**
   * Called when the model gave a final answer: true (and closed to new
   * interjections) when nothing is waiting; false when interjections arrived
   * meanwhile and the run must take another turn for them.
   */
  finish(): boolean {
    if (this.#closed) return true;
    if (this.#delivered || this.#queue.length > 0) return false;
    this.#closed = true;
    return true;
  }

  /** Ends the queue: nothing more is accepted, and what was not answered is rejected (default: "Agent finished before the interjection was delivered"). */
  close(error?: unknown): void {
    this.#closed = true;
    const pending = [...(this.#delivered?.tickets ?? []), ...this.#queue];
    if (pending.length === 0) return;
    this.#delivered = undefined;
    this.#queue.length = 0;
    const reason = error ?? new AgentInterjectionError('Agent finished before the interjection was delivered');
    for (const ticket of pending) ticket.reject(reason);
  }

  #wait(ticket: Ticket, signal: AbortSignal | undefined): Promise<InterjectionReply> {
    if (!signal) return ticket.reply;
    const withdraw = () => this.#withdraw(ticket);
    if (signal.aborted) withdraw();
    else signal.addEventListener('abort', withdraw, { once: true });
    return raceAbort(ticket.reply, signal).finally(() => signal.removeEventListener('abort', withdraw));
  }

  /** A waiter gave up: an interjection nobody waits for is withdrawn while it is still queued. */
  #withdraw(ticket: Ticket): void {
    ticket.waiters--;
    if (ticket.waiters > 0) return;
    const index = this.#queue.indexOf(ticket);
    if (index < 0) return;
    this.#queue.splice(index, 1);
    this.#tickets.delete(ticket.id);
  }
}

/** The caller's signal, joined with the interjection deadline when there is one. */
function waitSignal(options: InterjectOptions): [AbortSignal | undefined, (() => void) | undefined] {
  if (options.deadline === undefined) return [options.signal, undefined];
  const deadline = options.deadline;
  const time = deadline instanceof Date ? deadline.getTime() : typeof deadline === 'string' ? Date.parse(deadline) : deadline;
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new InvocationError('deadline must be a valid time');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceededError({ message: 'The interjection deadline was reached' })), Math.max(0, time - Date.now()));
  const signals = [controller.signal, ...(options.signal ? [options.signal] : [])];
  return [signals.length === 1 ? controller.signal : AbortSignal.any(signals), () => clearTimeout(timer)];
}

/** The content of an interjection as user content parts; anything but text, images and documents is refused. */
export function interjectionContent(input: InterjectionInput): Exclude<UserContent, string> {
  const content: unknown = isPlainObject(input) && (input as { role?: unknown }).role === 'user' ? (input as UserModelMessage).content : input;
  if (typeof content === 'string') {
    if (content.length === 0) throw new InvocationError('An interjection needs a message');
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content) || content.length === 0) {
    throw new InvocationError('An interjection needs a message: text, user content parts or a user message');
  }
  for (const part of content) {
    const type = isPlainObject(part) ? part.type : undefined;
    if (type !== 'text' && type !== 'image' && type !== 'file') {
      throw new InvocationError('interject message content must contain only text, images, or documents');
    }
  }
  return content as Exclude<UserContent, string>;
}

function createTicket(
  id: string,
  key: string,
  batchKey: string | undefined,
  content: Exclude<UserContent, string>,
  metadata: Readonly<Record<string, unknown>> | undefined,
): Ticket {
  let resolve!: (reply: InterjectionReply) => void;
  let reject!: (error: unknown) => void;
  const reply = new Promise<InterjectionReply>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  reply.catch(() => undefined);
  return { id, key, batchKey, content, metadata, reply, resolve, reject, waiters: 0 };
}

/** A part in a form that compares by value (an ArrayBuffer as its bytes; JSON keeps Uint8Array bytes already). */
function comparable(part: object): object {
  const data = (part as { data?: unknown }).data;
  return data instanceof ArrayBuffer ? { ...part, data: new Uint8Array(data) } : part;
}
