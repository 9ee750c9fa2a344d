import { captureValue } from './content-capture.ts';
import type { CapturePolicy } from './content-capture.ts';
import type { Attributes, InstrumentationEventName, OperationName } from './instrumentation-subscriber.ts';
import type { Instrumentation } from './instrumentation.ts';
import type { TraceContext } from './trace-context.ts';

/** Content an operation may carry when its agent captures content (otherwise ignored). */
export interface OperationContent {
  readonly input?: unknown;
  readonly output?: unknown;
}

/** How an operation failed. `message` and `stack` are present only when content is captured. */
export interface OperationError {
  /** The error's name (`ProviderError`, `ToolError`, …). */
  readonly type: string;
  readonly message?: string | undefined;
  /** At most 64,000 characters. */
  readonly stack?: string | undefined;
}

let sequence = 0;

/**
 * One running operation of a run (a span, to a tracer): a handle that starts
 * children, records point events and finishes once. Handles nest last in,
 * first out: finishing an operation first finishes any child still open
 * (`abandoned: true`), so subscribers always see children end before their
 * parent; finishing twice does nothing.
 */
export class Operation {
  /** Unique in this isolate. */
  readonly id: string;
  readonly name: OperationName;
  readonly parent: Operation | undefined;
  /** The start attributes (captured `input` included). */
  readonly attributes: Attributes;
  /** Epoch milliseconds, sub-millisecond where the clock allows. */
  readonly startTime: number;
  /** The remote parent a root operation continues (from an incoming `traceparent`). */
  readonly remoteParent: TraceContext | undefined;
  #endTime: number | undefined;
  #error: OperationError | undefined;
  readonly #bus: Instrumentation;
  readonly #capture: CapturePolicy | undefined;
  #children: Set<Operation> | undefined;

  /** @internal Started through `Instrumentation.start` or `operation.start`. */
  constructor(bus: Instrumentation, name: OperationName, attributes: Attributes, parent: Operation | undefined, capture: CapturePolicy | undefined, remoteParent: TraceContext | undefined, content?: OperationContent) {
    this.id = `${++sequence}`;
    this.name = name;
    this.parent = parent;
    this.remoteParent = remoteParent;
    this.#bus = bus;
    this.#capture = capture;
    this.attributes = this.#withContent(attributes, content);
    this.startTime = bus.now();
    bus.notify('start', name, this.attributes, this);
  }

  /** Epoch milliseconds when it ended. */
  get endTime(): number | undefined {
    return this.#endTime;
  }

  /** Whether it has finished. */
  get ended(): boolean {
    return this.#endTime !== undefined;
  }

  /** How it failed, once finished with an error. */
  get error(): OperationError | undefined {
    return this.#error;
  }

  /** Starts a child operation. */
  start(name: OperationName, attributes: Attributes = {}, content?: OperationContent): Operation {
    const child = new Operation(this.#bus, name, attributes, this, this.#capture, undefined, content);
    if (!this.ended) (this.#children ??= new Set()).add(child);
    return child;
  }

  /** Records a point event inside this operation. */
  emit(name: InstrumentationEventName, attributes: Attributes = {}, content?: OperationContent): void {
    this.#bus.notify('emit', name, this.#withContent(attributes, content), this);
  }

  /** Ends the operation (after any open child), with `error` when it failed. */
  finish(attributes: Attributes = {}, error?: unknown, content?: OperationContent): void {
    if (this.ended) return;
    if (this.#children) for (const child of [...this.#children].reverse()) child.finish({ abandoned: true });
    if (error !== undefined) this.#error = this.#describe(error);
    this.#endTime = this.#bus.now();
    if (this.parent) this.parent.#children?.delete(this);
    this.#bus.notify('finish', this.name, this.#withContent(attributes, content), this);
  }

  /** The W3C trace context to send with requests made inside this operation, if any. */
  traceContext(): TraceContext | undefined {
    return this.#bus.traceContext(this);
  }

  #withContent(attributes: Attributes, content: OperationContent | undefined): Attributes {
    const policy = this.#capture;
    if (!policy || !content) return attributes;
    const input = content.input === undefined ? undefined : captureValue(policy, content.input, this.name, 'input');
    const output = content.output === undefined ? undefined : captureValue(policy, content.output, this.name, 'output');
    return { ...attributes, ...(input === undefined ? {} : { input }), ...(output === undefined ? {} : { output }) };
  }

  #describe(error: unknown): OperationError {
    const type = (error as { name?: unknown } | null)?.name;
    const described: OperationError = { type: typeof type === 'string' && type ? type : typeof error };
    const policy = this.#capture;
    if (!policy || !(error instanceof Error)) return described;
    const message = captureValue(policy, error.message, this.name, 'error');
    const stack = typeof error.stack === 'string' ? captureValue({ ...policy, maxBytes: 64_000 }, error.stack.slice(0, 64_000), this.name, 'error') : undefined;
    return { ...described, message, stack };
  }
}
