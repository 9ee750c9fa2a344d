/**
 * The W3C trace context of an operation, as the `traceparent` and
 * `tracestate` HTTP headers carry it (https://www.w3.org/TR/trace-context/).
 */
export interface TraceContext {
  /** `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`. */
  readonly traceparent: string;
  /** Vendor-specific entries, passed on unchanged. */
  readonly tracestate?: string | undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;
const MAX_TRACESTATE = 512;

/** The trace id of a valid `traceparent`, or undefined (unknown version `ff`, all-zero ids, bad syntax). */
export function traceIdOf(traceparent: string): string | undefined {
  const match = TRACEPARENT.exec(traceparent);
  if (!match || match[1] === 'ff' || (match[1] === '00' && traceparent.length !== 55)) return undefined;
  if (/^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined;
  return match[2];
}

/**
 * Reads a W3C trace context from request headers: a valid `traceparent`
 * (anything else is ignored, as the specification asks) and its
 * `tracestate` when that is at most 512 characters.
 *
 * @example
 * const parent = traceContextFrom(request.headers);
 * const run = await agent.ask(input, { traceContext: parent });
 */
export function traceContextFrom(headers: Headers): TraceContext | undefined {
  const traceparent = headers.get('traceparent')?.trim().toLowerCase();
  if (traceparent === undefined || traceIdOf(traceparent) === undefined) return undefined;
  const tracestate = headers.get('tracestate')?.trim();
  return tracestate && tracestate.length <= MAX_TRACESTATE ? { traceparent, tracestate } : { traceparent };
}
