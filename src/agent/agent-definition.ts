import type { LanguageModel, ToolChoice, ToolSet } from 'ai';
import type { ArtifactOptions } from '../artifacts/artifacts-capability';
import type { CodeModeOptions } from '../codemode/code-mode-capability';
import type { ModelCapabilityOverrides } from '../model/model-capabilities';
import type { ResultDeclaration } from '../structured/result-schema';
import type { ToolDeclaration } from '../tool/tool-declaration';
import type { ToolBinding } from '../tool/tool-binding';
import type { AgentHooks } from './hooks';
import type { AgentLimits } from './limits';
import type { ModelRegistry } from './model-registry';
import type { ModelSettings } from './model-step';
import type { RunCapability } from './run-capability';
import type { SkillsConfig } from '../skills/skills-options';
import type { ToolLoopOptions } from './tool-loop-detector';
import type { AgentSandboxOptions, AgentWorkspaceOptions } from '../workspace/workspace-capability';

/** What instructions may be: text, or a function of the run's binding. */
export type Instructions = string | ((binding: ToolBinding) => string | Promise<string>);

/** The definition of an agent: plain data, frozen by `defineAgent`. */
export interface AgentDefinition {
  /** The agent's name: letters, digits, `_`, `-` and `.` (used in events, routes and sessions). */
  name: string;
  /** An AI SDK 7 language model, or a name resolved by `models` (a role or `provider:model-id`). */
  model: LanguageModel | string;
  /** The system instructions. */
  instructions?: Instructions;
  /** Tools, tool providers, AI SDK tool records and registry tool ids (resolved from the run's `toolRegistry`); nested arrays are flattened. */
  tools?: readonly ToolDeclaration[];
  /** Per-run limits. */
  limits?: AgentLimits;
  /** Callbacks around model and tool calls. */
  hooks?: AgentHooks;
  /** Provider call settings (temperature, max output tokens, retries…). */
  settings?: ModelSettings;
  /** How the model may choose tools (AI SDK `toolChoice`; default `auto`). */
  toolChoice?: ToolChoice<ToolSet>;
  /** Resolves string model names. */
  models?: ModelRegistry;
  /** Detect and stop repeated identical tool calls (`true` for the defaults). */
  detectToolLoops?: boolean | ToolLoopOptions;
  /**
   * A result schema: the run's `output` becomes a checked value instead of text.
   * A valibot schema or JSON Schema, or `{ schema, name, description, strategy }`.
   */
  result?: ResultDeclaration;
  /** Store input media, tool artifacts and oversized tool values (`true` for the defaults). */
  artifacts?: boolean | ArtifactOptions;
  /** What the model can do, over the built-in capability table (structured output, tools, input modalities). */
  modelCapabilities?: ModelCapabilityOverrides;
  /** Skills the agent can discover and load: `true`, options (`paths`, `only`, limits) or a loaded `SkillCatalog`. */
  skills?: SkillsConfig;
  /** Code mode: the model writes programs (`exec`/`wait`/`stop`) that call the other tools; see docs/code-mode.md. */
  codeMode?: boolean | CodeModeOptions;
  /** A workspace for every run: options for a fresh one, or a factory. The run opens it before its sandbox and closes both. */
  workspace?: AgentWorkspaceOptions;
  /** The sandbox over the run's workspace: policy, limits, profiles (default: the root read-only), or a factory. */
  sandbox?: AgentSandboxOptions;
  /** Application-defined capabilities that take part in every run (set up after the built-in ones). */
  capabilities?: readonly RunCapability[];
}
