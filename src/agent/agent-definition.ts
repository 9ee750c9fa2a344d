import type { LanguageModel, ToolChoice, ToolSet } from 'ai';
import type { ContentCapture } from '../instrumentation/content-capture.ts';
import type { Instrumentation } from '../instrumentation/instrumentation.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import type { ResultDeclaration } from '../structured/result-schema.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import type { Invocation, RunHandle, ToolBinding } from '../tool/tool-binding.ts';
import type { FileDownloader } from './file-downloads.ts';
import type { AgentHooks } from './hooks.ts';
import type { AgentLimits } from './limits.ts';
import type { ModelRegistry } from './model-registry.ts';
import type { ModelSettings } from './model-step.ts';
import type { RunCapability } from './run-capability.ts';
import type { RuntimeHook } from './runtime-hooks.ts';
import type { ToolLoopOptions } from './tool-loop-detector.ts';

/**
 * The locals every run gives a function of its instructions (and prompt
 * views, `ghostlight/prompts`): the invocation, the run, the agent, the skill
 * catalog's prompt (`''` without `skills()`), and what capabilities add.
 */
export interface PromptLocals {
  readonly invocation: Invocation;
  readonly run: RunHandle;
  readonly agent: { readonly name: string };
  /** The skills catalog prompt; a view that places it keeps `skills()` from appending it again. */
  readonly skillsPrompt: string;
  readonly [name: string]: unknown;
}

/** What instructions may be: text, or a function of the run's binding and prompt locals (a prompt view is one). */
export type Instructions = string | ((binding: ToolBinding, locals: PromptLocals) => string | Promise<string>);

/** The definition of an agent: plain data, frozen by `defineAgent`. */
export interface AgentDefinition {
  /** The agent's name: letters, digits, `_`, `-` and `.` (used in events, routes and sessions). */
  name: string;
  /** An AI SDK 7 language model, or a name resolved by `models` (a role or `provider:model-id`). */
  model: LanguageModel | string;
  /** The system instructions. */
  instructions?: Instructions | undefined;
  /** Tools, tool providers, AI SDK tool records and registry tool ids (resolved from the run's `toolRegistry`); nested arrays are flattened. */
  tools?: readonly ToolDeclaration[] | undefined;
  /** Per-run limits. */
  limits?: AgentLimits | undefined;
  /** Callbacks around the invocation, model calls and tool calls. */
  hooks?: AgentHooks | undefined;
  /** Hooks around every run of this agent (after the run's own `runtimeHooks`): preparation, session history, safe error messages. */
  runtimeHooks?: readonly RuntimeHook[] | undefined;
  /**
   * Fetches file URLs the model cannot read by URL (default: none — a URL the
   * model reads natively goes to the provider as it is, any other fails the
   * run with `UnsupportedInputError`). Build it with `allowDownloads({
   * allowHosts, maxBytes })`: client-named URLs are untrusted.
   */
  downloads?: FileDownloader | undefined;
  /** Provider call settings (temperature, max output tokens, retries…). */
  settings?: ModelSettings | undefined;
  /** How the model may choose tools (AI SDK `toolChoice`; default `auto`). */
  toolChoice?: ToolChoice<ToolSet> | undefined;
  /** Resolves string model names. */
  models?: ModelRegistry | undefined;
  /** Detect and stop repeated identical tool calls (`true` for the defaults). */
  detectToolLoops?: boolean | ToolLoopOptions | undefined;
  /**
   * A result schema: the run's `output` becomes a checked value instead of text.
   * A valibot schema or JSON Schema, or `{ schema, name, description, strategy }`.
   */
  result?: ResultDeclaration | undefined;
  /** What the model can do, over the built-in capability table (structured output, tools, input modalities). */
  modelCapabilities?: ModelCapabilityOverrides | undefined;
  /**
   * The optional capabilities every run of this agent takes part in, each from
   * its own entry so that what is not imported is not bundled:
   * `workspace()` and `sandbox()` (`ghostlight/workspace`, `ghostlight/sandbox`),
   * `codeMode()` (`ghostlight/code-mode`), `skills()` (`ghostlight/skills`),
   * `artifacts()` (`ghostlight/artifacts`), or your own {@link RunCapability}.
   * The run sets them up by `order`, then in the order given.
   */
  capabilities?: readonly RunCapability[] | undefined;
  /**
   * Where this agent's runs report their operations (`run`, `agent`,
   * `agent_turn`, `model`, `tool`, …): an {@link Instrumentation} bus with
   * subscribers such as `openTelemetry()` from `ghostlight/opentelemetry`.
   * The `instrumentation` ask option overrides it for one run.
   */
  instrumentation?: Instrumentation | undefined;
  /**
   * Whether operations carry content (messages, tool arguments and results,
   * error messages and stacks): off by default; `true`, or options with a
   * `scrubber`, turn it on for this agent. Secret-looking values are always
   * redacted.
   */
  captureContent?: ContentCapture | undefined;
}
