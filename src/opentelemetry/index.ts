/**
 * OpenTelemetry for Ghostlight: an instrumentation subscriber that reports
 * runs as spans on the GenAI semantic conventions. Needs the peer dependency
 * `@opentelemetry/api` and an SDK (Node: `@opentelemetry/sdk-trace` or
 * `sdk-trace-node`; a Worker: `@opentelemetry/sdk-trace` with an OTLP/HTTP
 * exporter flushed in `ctx.waitUntil`; the browser: `@opentelemetry/sdk-trace`).
 *
 * @module ghostlight/opentelemetry
 */
export { openTelemetry } from './open-telemetry.ts';
export type { FlushableTracerProvider, OpenTelemetryOptions } from './open-telemetry.ts';
