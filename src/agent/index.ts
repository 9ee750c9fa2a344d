export { Agent, defineAgent } from './agent.ts';
export type { AgentDefinitionInput, RunStream, ToolRecord } from './agent.ts';
export { asTool, isAgent } from './as-tool.ts';
export { isAskable, isComposite } from './askable.ts';
export type { Askable, AssemblyKind } from './askable.ts';
export type { AgentToolInput, AsToolOptions } from './as-tool.ts';
export type { AgentDefinition, Instructions, PromptLocals } from './agent-definition.ts';
export { cancel, prepend, replace } from './hooks.ts';
export type {
  AfterInvocationEvent,
  AfterModelErrorEvent,
  AfterModelEvent,
  AfterToolEvent,
  AgentHooks,
  BeforeInvocationEvent,
  BeforeModelEvent,
  BeforeToolEvent,
  Hook,
  HookDecision,
  Hooks,
  InvocationResult,
  ModelRequest,
  ModelResponse,
  RunHookContext,
} from './hooks.ts';
export type { PrepareRunContext, RuntimeHook, SessionHistoryContext } from './runtime-hooks.ts';
export type { RunModel, RunModelRequest, RunModelResponse } from './run-model.ts';
export { MAX_MODEL_RECOVERIES } from './run-execution.ts';
export type { AgentInput, ApprovalResponse, AskOptions } from './invocation.ts';
export { Execution, WAIT_DEADLINE_MESSAGE } from './execution.ts';
export type { ExecutionState, ExecutionWaitOptions, StartOptions } from './execution.ts';
export {
  APPROVAL_EXPIRED_REASON,
  APPROVAL_SUPERSEDED_REASON,
  ORPHANED_CALL_MESSAGE,
  PARKED_RUN_KEY,
  pendingApprovalsIn,
  TOOL_CHANGED_MESSAGE,
} from './approvals.ts';
export type { ApprovalAnswer } from './approvals.ts';
export { interject, INTERJECTION_PREFIX, MAX_INTERJECTION_BATCH, MAX_INTERJECTIONS } from './interjections.ts';
export type { InterjectionInput, InterjectionReply, InterjectOptions } from './interjections.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type { AgentLimits } from './limits.ts';
export { createModelRegistry } from './model-registry.ts';
export type { ModelProvider, ModelRegistry, ModelRegistryOptions } from './model-registry.ts';
export { allowDownloads, DEFAULT_DOWNLOAD_MAX_BYTES } from './file-downloads.ts';
export type { DownloadPolicy, FileDownloader } from './file-downloads.ts';
export type { ModelSettings } from './model-step.ts';
export { Run } from './run.ts';
export type { RunRecord, RunSummary } from './run.ts';
export type { Step } from './step.ts';
export { ToolLoopError } from './tool-loop-detector.ts';
export type { ToolLoopOptions } from './tool-loop-detector.ts';
export { addUsage, EMPTY_USAGE } from './usage.ts';
export type { Usage } from './usage.ts';
export { CAPABILITY_ORDER, RUN_CAPABILITY_VERSION } from './run-capability.ts';
export type {
  ApprovalStore,
  CapabilityArrangeContext,
  CapabilityCheckpointContext,
  CapabilityArrangement,
  CapabilitySetup,
  CapabilitySetupContext,
  RunCapability,
} from './run-capability.ts';
export type { ToolCallGuard, ToolResultProcessor } from './tool-executor.ts';
