import { context as contextApi, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { Attributes, InstrumentationSubscriber } from '../instrumentation/instrumentation-subscriber.ts';
import type { Operation } from '../instrumentation/operation.ts';
import { traceIdOf } from '../instrumentation/trace-context.ts';
import type { TraceContext } from '../instrumentation/trace-context.ts';
import { spanAttributes } from './span-attributes.ts';
import type { AttributeLimits } from './span-attributes.ts';

/** A tracer provider that can flush (every OpenTelemetry SDK provider can). */
export type FlushableTracerProvider = TracerProvider & { forceFlush?(): Promise<void> };

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans are created (default: `tracerProvider`'s, else the global provider's, `ghostlight` tracer). */
  readonly tracer?: Tracer | undefined;
  /** Your SDK's provider: the bus's `flush()` calls its `forceFlush()` (a Worker does so in `ctx.waitUntil`). */
  readonly tracerProvider?: FlushableTracerProvider | undefined;
  /** The longest attribute string, content excepted (default 1,024). */
  readonly maxAttributeLength?: number | undefined;
  /** More attribute keys whose values are redacted (secret-looking keys always are). */
  readonly redactKeys?: RegExp | undefined;
}

const OPERATION_NAMES: Readonly<Record<string, string>> = { run: 'invoke_agent', agent: 'invoke_agent', subagent: 'invoke_agent', model: 'chat', tool: 'execute_tool' };
const DETAIL: Readonly<Record<string, string>> = { run: 'agent', agent: 'agent', subagent: 'agent', model: 'model', tool: 'toolName', agent_turn: 'turn', session_store: 'action', mcp_discovery: 'server' };

/**
 * An instrumentation subscriber that turns Ghostlight's operations into
 * OpenTelemetry spans named and attributed per the GenAI semantic
 * conventions: `invoke_agent <agent>` (the run; its primary agent shares
 * the span), `agent_turn <n>`, `chat <model>` (client spans with
 * `gen_ai.request.model`, `gen_ai.usage.input_tokens`/`output_tokens`,
 * `gen_ai.response.finish_reasons`), `execute_tool <tool>` (with
 * `gen_ai.tool.name`, `gen_ai.tool.call.id` and the caller; a code-mode
 * program's calls are children of its `code_program` span), `session_store`,
 * `mcp_discovery`. Point events (`model_retry`, `structured_result`,
 * `tool_loop`) become span events named `ghostlight.<name>`; failures set
 * the span's error status and add an `exception` event. String attributes
 * are at most 1,024 characters and secret-looking values are redacted.
 *
 * A root operation continues the remote parent it was given (an incoming
 * `traceparent`), else the active context. Needs `@opentelemetry/api`
 * (a peer dependency) and an SDK set up by the application.
 *
 * @example
 * const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
 * const instrumentation = new Instrumentation({ subscribers: [openTelemetry({ tracerProvider: provider })] });
 * const agent = defineAgent({ name: 'support', model, instrumentation });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): InstrumentationSubscriber {
  const limits: AttributeLimits = { maxLength: options.maxAttributeLength ?? 1_024, redactKeys: options.redactKeys };
  const spans = new Map<string, { span: Span; alias: boolean }>();
  let tracer = options.tracer;
  const tracerOf = () => (tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer('ghostlight'));

  const spanOf = (operation: Operation | undefined): Span | undefined => {
    for (let current = operation; current; current = current.parent) {
      const entry = spans.get(current.id);
      if (entry) return entry.span;
    }
    return undefined;
  };

  return {
    start(name: string, attributes: Attributes, operation: Operation) {
      const parent = operation.parent;
      const parentSpan = spanOf(parent);
      const mapped = spanAttributes(name, attributes, limits);
      if (name === 'agent' && parent?.name === 'run' && parentSpan && parent.attributes.agent === attributes.agent) {
        // The run's own agent is the run's span (one `invoke_agent` span per invocation).
        parentSpan.setAttributes(mapped);
        spans.set(operation.id, { span: parentSpan, alias: true });
        return;
      }
      const parentContext = parentSpan ? trace.setSpan(ROOT_CONTEXT, parentSpan) : operation.remoteParent ? remoteContext(operation.remoteParent) : contextApi.active();
      const detailKey = DETAIL[name];
      const detail = detailKey === undefined ? undefined : attributes[detailKey];
      const operationName = OPERATION_NAMES[name] ?? name;
      const span = tracerOf().startSpan(
        detail === undefined ? operationName : `${operationName} ${String(detail).slice(0, 128)}`,
        {
          kind: name === 'model' || name === 'mcp_discovery' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          attributes: { 'gen_ai.operation.name': operationName, ...mapped },
          startTime: operation.startTime,
        },
        parentContext,
      );
      spans.set(operation.id, { span, alias: false });
    },

    finish(name: string, attributes: Attributes, operation: Operation) {
      const entry = spans.get(operation.id);
      if (!entry) return;
      spans.delete(operation.id);
      const { span } = entry;
      span.setAttributes(spanAttributes(name, attributes, limits));
      if (entry.alias) return;
      const error = operation.error;
      if (error) {
        span.setAttribute('error.type', error.type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message === undefined ? error.type : `${error.type}: ${error.message}`.slice(0, limits.maxLength) });
        span.addEvent('exception', {
          'exception.type': error.type,
          ...(error.message === undefined ? {} : { 'exception.message': error.message }),
          ...(error.stack === undefined ? {} : { 'exception.stacktrace': error.stack.slice(0, 64_000) }),
        }, operation.endTime);
      }
      span.end(operation.endTime);
    },

    emit(name: string, attributes: Attributes, operation: Operation) {
      spanOf(operation)?.addEvent(`ghostlight.${name}`, spanAttributes(name, attributes, limits));
    },

    traceContext(operation: Operation): TraceContext | undefined {
      const span = spanOf(operation);
      if (!span) return undefined;
      const { traceId, spanId, traceFlags, traceState } = span.spanContext();
      if (!trace.isSpanContextValid(span.spanContext())) return undefined;
      const traceparent = `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
      const tracestate = traceState?.serialize();
      return tracestate ? { traceparent, tracestate } : { traceparent };
    },

    async flush() {
      const provider = options.tracerProvider ?? delegateOf(trace.getTracerProvider());
      await provider?.forceFlush?.();
    },

    async shutdown() {
      const now = Date.now();
      for (const { span, alias } of spans.values()) if (!alias) span.end(now);
      spans.clear();
      await this.flush?.();
    },
  };
}

/** The context of a remote parent from a W3C `traceparent` (invalid ones give the root context). */
function remoteContext(parent: TraceContext): Context {
  const traceId = traceIdOf(parent.traceparent);
  if (traceId === undefined) return ROOT_CONTEXT;
  const [, , spanId, flags] = parent.traceparent.split('-');
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: spanId!,
    traceFlags: Number.parseInt(flags!, 16) & 1,
    isRemote: true,
    ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
  });
}

/** The SDK provider behind the API's global proxy provider, if it can flush. */
function delegateOf(provider: TracerProvider): FlushableTracerProvider | undefined {
  const delegate = (provider as { getDelegate?: () => TracerProvider }).getDelegate?.() ?? provider;
  return typeof (delegate as FlushableTracerProvider).forceFlush === 'function' ? (delegate as FlushableTracerProvider) : undefined;
}
