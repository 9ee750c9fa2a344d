export { Agent, defineAgent } from './agent';
export type { RunStream } from './agent';
export type { AgentDefinition, Instructions } from './agent-definition';
export { cancel, replace } from './hooks';
export type {
  AfterModelEvent,
  AfterToolEvent,
  AgentHooks,
  BeforeModelEvent,
  BeforeToolEvent,
  HookDecision,
  Hooks,
} from './hooks';
export type { AgentInput, AskOptions } from './invocation';
export { DEFAULT_LIMITS } from './limits';
export type { AgentLimits } from './limits';
export { createModelRegistry } from './model-registry';
export type { ModelProvider, ModelRegistry, ModelRegistryOptions } from './model-registry';
export type { ModelSettings } from './model-step';
export { Run } from './run';
export type { RunRecord, RunSummary } from './run';
export type { Step } from './step';
export { ToolLoopError } from './tool-loop-detector';
export type { ToolLoopOptions } from './tool-loop-detector';
export { addUsage, EMPTY_USAGE } from './usage';
export type { Usage } from './usage';
export type {
  CapabilityArrangeContext,
  CapabilityCheckpointContext,
  CapabilityArrangement,
  CapabilitySetup,
  CapabilitySetupContext,
  RunCapability,
} from './run-capability';
export type { ToolCallGuard, ToolResultProcessor } from './tool-executor';
