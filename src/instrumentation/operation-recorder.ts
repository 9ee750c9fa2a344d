import type { Attributes, InstrumentationSubscriber } from './instrumentation-subscriber.ts';
import type { Operation, OperationError } from './operation.ts';
import { traceIdOf } from './trace-context.ts';

/** One operation as an {@link OperationRecorder} keeps it: plain JSON. */
export interface RecordedOperation {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly name: string;
  /** Start and finish attributes together. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Epoch milliseconds. */
  readonly startTime: number;
  /** Epoch milliseconds; undefined while running. */
  readonly endTime: number | undefined;
  readonly error: OperationError | undefined;
  /** The W3C trace id, when a tracing subscriber (or a remote parent) gave one. */
  readonly traceId: string | undefined;
  readonly events: readonly { readonly name: string; readonly time: number; readonly attributes: Readonly<Record<string, unknown>> }[];
}

/**
 * A subscriber that keeps operations in memory, for tests, the playground's
 * Trace tab and small debugging routes. It keeps the most recent `limit`
 * operations (default 10,000), oldest dropped first.
 *
 * @example
 * const recorder = new OperationRecorder();
 * const run = await agent.ask('Hi', { instrumentation: new Instrumentation({ subscribers: [recorder] }) });
 * console.table(recorder.operations().map((operation) => [operation.name, operation.endTime! - operation.startTime]));
 */
export class OperationRecorder implements InstrumentationSubscriber {
  readonly #limit: number;
  readonly #records = new Map<string, RecordedOperation & { attributes: Record<string, unknown>; events: RecordedOperation['events'][number][] }>();

  /** `limit`: how many operations to keep (default 10,000). List a tracing subscriber before the recorder to record its trace ids. */
  constructor(options: { readonly limit?: number } = {}) {
    this.#limit = Math.max(1, options.limit ?? 10_000);
  }

  start(name: string, attributes: Attributes, operation: Operation): void {
    const context = operation.traceContext();
    this.#records.set(operation.id, {
      id: operation.id,
      parentId: operation.parent?.id,
      name,
      attributes: { ...attributes },
      startTime: operation.startTime,
      endTime: undefined,
      error: undefined,
      traceId: context && traceIdOf(context.traceparent),
      events: [],
    });
    if (this.#records.size > this.#limit) this.#records.delete(this.#records.keys().next().value!);
  }

  finish(_name: string, attributes: Attributes, operation: Operation): void {
    const record = this.#records.get(operation.id);
    if (!record) return;
    this.#records.set(operation.id, { ...record, attributes: { ...record.attributes, ...attributes }, endTime: operation.endTime, error: operation.error });
  }

  emit(name: string, attributes: Attributes, operation: Operation): void {
    this.#records.get(operation.id)?.events.push({ name, time: Date.now(), attributes: { ...attributes } });
  }

  /** The recorded operations in start order, optionally only those of one trace or under one root. */
  operations(filter: { readonly traceId?: string; readonly rootId?: string } = {}): RecordedOperation[] {
    let list = [...this.#records.values()];
    if (filter.traceId !== undefined) list = list.filter((record) => record.traceId === filter.traceId);
    if (filter.rootId !== undefined) {
      const inside = new Set([filter.rootId]);
      list = list.filter((record) => (record.id === filter.rootId || (record.parentId !== undefined && inside.has(record.parentId)) ? (inside.add(record.id), true) : false));
    }
    return list;
  }

  /** Forgets everything recorded. */
  clear(): void {
    this.#records.clear();
  }
}
