import { capturePolicy } from './content-capture.ts';
import type { ContentCapture } from './content-capture.ts';
import type { InstrumentationSubscriber, OperationName, Attributes } from './instrumentation-subscriber.ts';
import { Operation } from './operation.ts';
import type { OperationContent } from './operation.ts';
import type { TraceContext } from './trace-context.ts';

/** Options of {@link Instrumentation}. */
export interface InstrumentationOptions {
  /** The subscribers, in notification order. */
  readonly subscribers?: readonly InstrumentationSubscriber[] | undefined;
  /** Sees each subscriber failure once per subscriber and method (default: `console.warn`). */
  readonly onError?: ((error: unknown, context: { readonly method: string }) => void) | undefined;
}

/** Options of {@link Instrumentation.start}. */
export interface OperationStartOptions {
  /** The remote parent to continue (an incoming request's `traceparent`). */
  readonly parent?: TraceContext | undefined;
  /** Whether this operation tree carries content (off by default). */
  readonly captureContent?: ContentCapture | undefined;
  readonly content?: OperationContent | undefined;
}

type Method = 'start' | 'finish' | 'emit';

/**
 * The instrumentation bus: it hands a run's operations (`run`, `agent`,
 * `agent_turn`, `model`, `tool`, …) and point events to its subscribers (the
 * OpenTelemetry adapter, an {@link OperationRecorder}, your own). Configure
 * one per agent (`defineAgent({ instrumentation })`), per run (the
 * `instrumentation` ask option) or per app (`createAgentApp({ instrumentation })`).
 * A run without a bus, or whose bus has no subscribers, does no
 * instrumentation work at all. A subscriber that throws never breaks a run.
 *
 * @example
 * const instrumentation = new Instrumentation({ subscribers: [openTelemetry()] });
 * const agent = defineAgent({ name: 'support', model, instrumentation });
 */
export class Instrumentation {
  #subscribers: InstrumentationSubscriber[] = [];
  readonly #onError: NonNullable<InstrumentationOptions['onError']>;
  readonly #reported = new Set<string>();
  readonly #epoch = Date.now() - performance.now();
  #shutdown = false;
  #running = 0;
  #idle: Array<() => void> = [];

  constructor(options: InstrumentationOptions = {}) {
    this.#onError = options.onError ?? ((error, { method }) => console.warn(`ghostlight: an instrumentation subscriber failed in ${method}`, error));
    for (const subscriber of options.subscribers ?? []) this.subscribe(subscriber);
  }

  /** Whether any subscriber listens (runs skip instrumentation entirely when none does). */
  get active(): boolean {
    return this.#subscribers.length > 0 && !this.#shutdown;
  }

  /** Adds a subscriber (first with `prepend`); returns the function that removes it. */
  subscribe(subscriber: InstrumentationSubscriber, options: { readonly prepend?: boolean } = {}): () => void {
    const others = this.#subscribers.filter((item) => item !== subscriber);
    this.#subscribers = options.prepend ? [subscriber, ...others] : [...others, subscriber];
    return () => {
      this.#subscribers = this.#subscribers.filter((item) => item !== subscriber);
    };
  }

  /** Starts a root operation (a run, or an application's own). */
  start(name: OperationName, attributes: Attributes = {}, options: OperationStartOptions = {}): Operation {
    return new Operation(this, name, attributes, undefined, capturePolicy(options.captureContent), options.parent, options.content);
  }

  /** The trace context of `operation`: the first subscriber's answer, else the remote parent its root continues. */
  traceContext(operation: Operation): TraceContext | undefined {
    for (const subscriber of this.#subscribers) {
      if (!subscriber.traceContext) continue;
      try {
        const context = subscriber.traceContext(operation);
        if (context) return context;
      } catch (error) {
        this.#report(subscriber, 'traceContext', error);
      }
    }
    let root = operation;
    while (root.parent) root = root.parent;
    return root.remoteParent;
  }

  /**
   * Waits until every operation started so far has finished (at most
   * `timeoutMs`, default 30 s), then flushes. A Worker streaming a run calls
   * `ctx.waitUntil(instrumentation.flushWhenIdle())` so the export happens
   * after the run, once the response is on its way.
   */
  async flushWhenIdle(timeoutMs = 30_000): Promise<void> {
    if (this.#running > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([new Promise<void>((resolve) => this.#idle.push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    }
    await this.flush();
  }

  /** Asks every subscriber to send what it buffered; failures are reported, never thrown. */
  async flush(): Promise<void> {
    await Promise.all(this.#subscribers.map((subscriber) => this.#settle(subscriber, 'flush')));
  }

  /** Shuts every subscriber down (in reverse order); the bus reports nothing afterwards. */
  async shutdown(): Promise<void> {
    if (this.#shutdown) return;
    this.#shutdown = true;
    for (const subscriber of [...this.#subscribers].reverse()) await this.#settle(subscriber, 'shutdown');
  }

  /** @internal The bus clock: epoch milliseconds with sub-millisecond resolution. */
  now(): number {
    return this.#epoch + performance.now();
  }

  /** @internal Delivers one notification to every subscriber, isolating failures. */
  notify(method: Method, name: string, attributes: Attributes, operation: Operation): void {
    if (!operation.parent && method !== 'emit') {
      this.#running += method === 'start' ? 1 : -1;
      if (this.#running === 0) this.#idle.splice(0).forEach((resolve) => resolve());
    }
    if (this.#shutdown) return;
    for (const subscriber of this.#subscribers) {
      const handler = subscriber[method];
      if (!handler) continue;
      try {
        handler.call(subscriber, name, attributes, operation);
      } catch (error) {
        this.#report(subscriber, method, error);
      }
    }
  }

  async #settle(subscriber: InstrumentationSubscriber, method: 'flush' | 'shutdown'): Promise<void> {
    try {
      await subscriber[method]?.();
    } catch (error) {
      this.#report(subscriber, method, error);
    }
  }

  #report(subscriber: InstrumentationSubscriber, method: string, error: unknown): void {
    const index = this.#subscribers.indexOf(subscriber);
    const key = `${index}:${method}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    try {
      this.#onError(error, { method });
    } catch {
      // The error reporter itself failed: nothing more to do.
    }
  }
}
