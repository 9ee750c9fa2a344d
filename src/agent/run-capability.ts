import type { ModelMessage } from 'ai';
import type { EventPayload } from '../events/events.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { AsyncScope } from '../lifetime/async-scope.ts';
import type { Tool } from '../tool/tool.ts';
import type { RunState, ToolBinding } from '../tool/tool-binding.ts';
import type { ToolBroker } from '../tool/tool-broker.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import type { ToolCallRequest } from '../tool/invoke-tool.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import type { JsonObject } from '../util/json.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { ParkedRun } from './approvals.ts';
import type { AgentHooks } from './hooks.ts';
import type { AskOptions } from './invocation.ts';
import type { RunModel } from './run-model.ts';
import type { ToolCallGuard, ToolResultProcessor } from './tool-executor.ts';

/** The version of the {@link RunCapability} contract this package speaks. */
export const RUN_CAPABILITY_VERSION = 'run-capability-v1';

/**
 * Where a capability sits in a run's set-up order (`RunCapability.order`).
 * Lower runs first, in every phase; equal orders keep declaration order.
 */
export const CAPABILITY_ORDER = Object.freeze({
  /** Resources other capabilities use: the workspace (100), then its sandbox (110). */
  resources: 100,
  /** Conversation state: sessions. */
  session: 200,
  /** Checks over the run's tools: the tool registry and capability snapshots. */
  registry: 300,
  /** What tools produce and the model sees: artifacts (400), skills (450). */
  content: 400,
  /** The default for application capabilities. */
  application: 500,
  /** Capabilities that manage the conversation sent to the model (context management): after the application's. */
  context: 800,
  /** Capabilities that rearrange every other tool (code mode): last. */
  arrange: 900,
});

/**
 * A capability that takes part in a run: the workspace, code mode, skills,
 * artifacts, sessions. An agent opts into each one by importing its factory
 * and listing it in `capabilities`, so what it does not import is not bundled.
 * The run sets them up in `order` (then declaration order), then arranges the
 * model-facing tools in the same order, and checkpoints after every turn.
 *
 * Whatever a capability opens it registers on `scope`, which the run closes in
 * reverse order on every outcome, before the terminal event.
 *
 * @example
 * const audit: RunCapability = {
 *   version: 'run-capability-v1',
 *   name: 'audit',
 *   setup: ({ binding }) => ({ hooks: { afterTool: (event) => log(binding.run.runId, event.toolName) } }),
 * };
 */
export interface RunCapability {
  /** The contract version: `run-capability-v1`. */
  readonly version: typeof RUN_CAPABILITY_VERSION;
  /** A short, unique name for errors, ordering and `requires`. */
  readonly name: string;
  /** Set-up order, see {@link CAPABILITY_ORDER} (default `application`, 500). */
  readonly order?: number;
  /** Names of capabilities this one needs set up before it (a missing one is a `ConfigurationError`). */
  readonly requires?: readonly string[];
  /** Keys of `agent.ask` options this capability reads (e.g. `workspace`); other unknown keys are refused. */
  readonly optionKeys?: readonly string[];
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
  /** The run's agent operation, when the run is instrumented. */
  readonly operation?: Operation | undefined;
  /** A run stopping for approvals stores what it needs to continue (`null`: the stop was settled, forget it). */
  readonly parked?: ParkedRun | null | undefined;
}

/**
 * Where a run keeps what it needs to continue after stopping for approvals:
 * the session capability provides it (the parked run in the session, and
 * claims in the same store).
 */
export interface ApprovalStore {
  /** The run the session holds parked, if any. */
  readonly parked: ParkedRun | undefined;
  /**
   * Records the first claim on a parked stop atomically (with the answers it
   * settles it with). `won: false` when another run claimed it first; then
   * that run's answers are returned.
   */
  claim(parkId: string, answers: JsonObject): Promise<{ won: true } | { won: false; answers: JsonObject }>;
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
  /** The run's model: its capabilities (context window…) and tool-less calls counted in the run's usage. */
  readonly model: RunModel;
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
  /** Prompt locals the agent's instructions receive (prompt views), e.g. `skillsPrompt`. */
  readonly promptLocals?: Readonly<Record<string, unknown>>;
  /**
   * The prompt local that carries this capability's `instructions`: when the
   * agent's instructions read it (a prompt view placing `skillsPrompt`), the
   * instructions are not appended a second time.
   */
  readonly instructionsLocal?: string;
  /** Messages placed before the history (rare; e.g. restored context). */
  readonly prelude?: readonly ModelMessage[];
  /** Replaces the invocation's `history` (a restored session's conversation; the last one given wins). */
  readonly history?: readonly ModelMessage[];
  /**
   * Names of this capability's tools that must stay model-facing when a later
   * capability rearranges the tools: code mode leaves them out of its program
   * catalog, as it does its `except` list (the subagent tools do this).
   */
  readonly keepModelFacing?: readonly string[];
  /**
   * Recognises calls whose identical repetition is expected progress, not a
   * loop (a long poll that is still waiting): tool-loop detection neither
   * counts nor warns about them.
   */
  readonly expectedRepeat?: (call: ToolCallRequest, result: ToolCallResult) => boolean;
  /** Where a run stopping for approvals keeps what it needs (the session capability provides it). */
  readonly approvals?: ApprovalStore;
}

/** What phase 2 sees. */
export interface CapabilityArrangeContext {
  /** The tools offered to the model so far. */
  readonly tools: readonly Tool[];
  /** Tools other capabilities asked to keep model-facing (`CapabilitySetup.keepModelFacing`): leave them offered. */
  readonly keepModelFacing: ReadonlySet<string>;
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
