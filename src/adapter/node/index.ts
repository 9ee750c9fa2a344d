export { stdioMcpTransport } from './stdio-mcp-transport.ts';
export type { StdioMcpTransportOptions } from './stdio-mcp-transport.ts';
export { createWorkerThreadCodeEngine } from './worker-thread-code-engine.ts';
export type { WorkerThreadCodeEngineOptions, WorkerThreadResourceLimits } from './worker-thread-code-engine.ts';
