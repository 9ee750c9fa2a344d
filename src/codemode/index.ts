export { runCode } from './run-code';
export type { RunCodeOptions, RunCodeResult } from './run-code';
export { codeModeCapability } from './code-mode-capability';
export type { CodeModeOptions } from './code-mode-capability';
export { DEFAULT_CODE_LIMITS, MAX_STACK_BYTES, resolveCodeLimits } from './code-limits';
export type { CodeLimits } from './code-limits';
export { CodeLimitError } from './code-limit-error';
export type { CodeLimitName } from './code-limit-error';
export { CodeProgramError } from './code-program-error';
export type {
  CodeEngine,
  CodeEngineHost,
  CodeEngineProgram,
  CodeEngineRequest,
  CodeEngineStep,
  CodeEngineStopReason,
} from './code-engine';
export { createQuickJsEngine } from './quickjs/quickjs-engine';
export type { QuickJsEngineOptions } from './quickjs/quickjs-engine';
export { defaultCodeEngine } from './quickjs/default-code-engine';
export { CodeCatalog, normalizeCodeName } from './code-catalog';
export type { CodeCatalogEntry } from './code-catalog';
export { renderDeclarations, schemaToTypeScript } from './typescript-declarations';
export type { CodeObservation } from './code-session';
