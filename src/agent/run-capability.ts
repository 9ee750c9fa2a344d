import type { ModelMessage } from 'ai';
import type { EventPayload } from '../events/events';
import type { AsyncScope } from '../lifetime/async-scope';
import type { Tool } from '../tool/tool';
import type { RunState, ToolBinding } from '../tool/tool-binding';
import type { ToolBroker } from '../tool/tool-broker';
import type { ToolDeclaration } from '../tool/tool-declaration';
import type { AgentDefinition } from './agent-definition';
import type { AgentHooks } from './hooks';
import type { AskOptions } from './invocation';
import type { ToolCallGuard, ToolResultProcessor } from './tool-executor';

/**
 * A capability that takes part in a run: the workspace, code mode, skills,
 * artifacts. Capabilities are dormant until an agent declares them; the run
 * sets each one up in order, then arranges the model-facing tools.
 *
 * Whatever a capability opens it registers on `scope`, which the run closes in
 * reverse order on every outcome, before the terminal event.
 */
export interface RunCapability {
  /** A short name for errors and diagnostics. */
  readonly name: string;
  /** Phase 1, before tools are resolved: open resources and contribute tools, hooks and instructions. */
  setup?(context: CapabilitySetupContext): Promise<CapabilitySetup | void> | CapabilitySetup | void;
  /** Phase 2, after the executor exists: rearrange the model-facing tools (code mode moves them into programs). */
  arrange?(context: CapabilityArrangeContext): Promise<CapabilityArrangement | void> | CapabilityArrangement | void;
  /**
   * After every completed turn (tool results included) and after the final
   * answer: persist progress (sessions do). Throwing fails the run.
   */
  checkpoint?(context: CapabilityCheckpointContext): Promise<void> | void;
}

/** What a checkpoint sees. */
export interface CapabilityCheckpointContext {
  /** The conversation so far without prelude messages: history, the input and every completed turn. */
  readonly messages: readonly ModelMessage[];
  /** The run's working state. */
  readonly state: RunState;
  /** The turn that just completed. */
  readonly turn: number;
}

/** What phase 1 sees. */
export interface CapabilitySetupContext {
  /** The binding so far (earlier capabilities' additions included). */
  readonly binding: ToolBinding;
  /** The run's resource scope: register cleanups here. */
  readonly scope: AsyncScope;
  readonly definition: Readonly<AgentDefinition>;
  readonly options: Readonly<AskOptions>;
  readonly emit: (event: EventPayload) => void;
}

/** What phase 1 may contribute. */
export interface CapabilitySetup {
  /** Fields added to every tool's binding (e.g. `workspace`, `sandbox`). */
  readonly bind?: Partial<ToolBinding> & Record<string, unknown>;
  /** Extra tools (e.g. the `skills` tool). */
  readonly tools?: readonly ToolDeclaration[];
  /** Hooks run before the agent's own. */
  readonly hooks?: AgentHooks;
  /** Result processors (after `afterTool`, before truncation). */
  readonly processors?: readonly ToolResultProcessor[];
  /** Guards checked before each call. */
  readonly guards?: readonly ToolCallGuard[];
  /** Text appended to the instructions. */
  readonly instructions?: string;
  /** Messages placed before the history (rare; e.g. restored context). */
  readonly prelude?: readonly ModelMessage[];
  /** Replaces the invocation's `history` (a restored session's conversation; the last one given wins). */
  readonly history?: readonly ModelMessage[];
}

/** What phase 2 sees. */
export interface CapabilityArrangeContext {
  /** The tools offered to the model so far. */
  readonly tools: readonly Tool[];
  /** Every tool of the run, through the one executor. */
  readonly broker: ToolBroker;
  readonly binding: ToolBinding;
  readonly scope: AsyncScope;
  readonly emit: (event: EventPayload) => void;
}

/** What phase 2 may change. */
export interface CapabilityArrangement {
  /** The new model-facing tools (they must be tools of the run, or be added through `extraTools`). */
  readonly tools?: readonly Tool[];
  /** Tools created in phase 2 and added to the run (e.g. code mode's `exec`, `wait`, `stop`). */
  readonly extraTools?: readonly Tool[];
  /** Names of loop-control tools: not counted, no tool events, no exclusive lock. */
  readonly controlTools?: readonly string[];
  /** Text appended to the instructions. */
  readonly instructions?: string;
}
