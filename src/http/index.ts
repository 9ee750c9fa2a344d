export { createAgentApp } from './create-agent-app';
export type { AgentAppCors, AgentAppLimits, AgentAppOptions, AuthResult } from './agent-app-options';
export { HttpError } from './http-error';
