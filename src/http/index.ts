/**
 * Agents over HTTP with Hono: runs as JSON or server-sent events, AG-UI and
 * AI SDK UI-message streams, sessions, resumable event streams.
 *
 * @module ghostlight/http
 */
export { createAgentApp } from './create-agent-app.ts';
export type { AgentAppCors, AgentAppLimits, AgentAppOptions, Authenticate, AuthResult } from './agent-app-options.ts';
export { corsPolicy, isCorsPolicy } from './cors-policy.ts';
export type { CorsPolicy } from './cors-policy.ts';
export { HttpError } from './http-error.ts';
export type { CancelAnswer, InterjectRequest, QueuedInterjection, RunHost, RunHostRef, RunHostStart } from './run-host.ts';
