/**
 * Code mode: the model writes programs (`exec`/`wait`/`stop`) that compose the
 * agent's tools inside a QuickJS WebAssembly sandbox, the same in Node,
 * Workers and browsers; and `runCode` to run one program on its own.
 *
 * @module ghostlight/code-mode
 */
export { runCode } from './run-code.ts';
export type { RunCodeOptions, RunCodeResult } from './run-code.ts';
export { codeMode } from './code-mode-capability.ts';
export type { CodeModeOptions } from './code-mode-capability.ts';
export { DEFAULT_CODE_LIMITS, MAX_STACK_BYTES } from './code-limits.ts';
export type { CodeLimits } from './code-limits.ts';
export { CodeLimitError } from './code-limit-error.ts';
export type { CodeLimitName } from './code-limit-error.ts';
export { CodeProgramError } from './code-program-error.ts';
export type {
  CodeEngine,
  CodeEngineHost,
  CodeEngineProgram,
  CodeEngineRequest,
  CodeEngineStep,
  CodeEngineStopReason,
} from './code-engine.ts';
export { createQuickJsEngine } from './quickjs/quickjs-engine.ts';
export type { QuickJsEngineOptions } from './quickjs/quickjs-engine.ts';
export { defaultCodeEngine } from './quickjs/default-code-engine.ts';
export { createRemoteCodeEngine, terminationGraceMs } from './remote/remote-code-engine.ts';
export type { CodeEngineWorker, RemoteCodeEngineOptions } from './remote/remote-code-engine.ts';
export { serveCodeEngine } from './remote/serve-code-engine.ts';
export type { CodeEngineWorkerPort } from './remote/serve-code-engine.ts';
export type { HostMessage, RemoteDelivery, RemoteError, RemoteEvent, RemoteRequest, WorkerMessage } from './remote/remote-protocol.ts';
export { CodeCatalog, normalizeCodeName } from './code-catalog.ts';
export type { CodeCatalogEntry } from './code-catalog.ts';
export { renderDeclarations, schemaToTypeScript } from './typescript-declarations.ts';
export type { CodeObservation } from './code-session.ts';
export { CodeReplayError } from './code-replay.ts';
export type { CodeJournal } from './code-replay.ts';
