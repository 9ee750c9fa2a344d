import type { ResolvedSchema } from '../schema/resolve-schema.ts';
import type { ToolBinding, ToolCallBinding } from './tool-binding.ts';
import type { ToolResult } from './tool-result.ts';

const toolMarker = Symbol.for('ghostlight.tool');

/**
 * A tool: one named operation with checked input. A plain, frozen object made
 * by {@link defineTool} (or adapted from an AI SDK `tool()`); the run binds it
 * to its collaborators and calls `execute` through the one tool executor.
 */
export interface Tool<INPUT = unknown, OUTPUT = unknown> {
  readonly [toolMarker]: true;
  /** The model-visible name. */
  readonly name: string;
  /**
   * The registry id the tool was taken from (`atlas.search`), when a tool
   * registry supplied it. Events and results report this id; the model sees
   * `name`, a provider-safe alias of it.
   */
  readonly id?: string;
  /** The model-visible description. */
  readonly description: string;
  /** The input schema (JSON Schema for the model, and the checker). */
  readonly input: ResolvedSchema<INPUT>;
  /** The output schema, when declared (shown in code-mode declarations and descriptor hashes). */
  readonly output: ResolvedSchema<OUTPUT> | undefined;
  /** Whether calls take the run-wide exclusive lock (and make their batch sequential). */
  readonly exclusive: boolean;
  /** Decides, before the run uses the tool, whether it exists for this run (discovery, not authorisation). */
  readonly availableIf: ((binding: ToolBinding) => boolean | Promise<boolean>) | undefined;
  /** Runs the operation with validated input. */
  readonly execute: (input: INPUT, binding: ToolCallBinding) => ToolOutput<OUTPUT> | Promise<ToolOutput<OUTPUT>>;
  /** Called once when a run that used the tool ends, whatever the outcome, in reverse order. */
  readonly close: ((binding: ToolBinding) => void | Promise<void>) | undefined;
  /**
   * Whether a call waits for a person's approval before it runs (AI SDK's
   * name): `true`, or a function of the call's input and binding. The run
   * then ends `waiting` and `agent.resume` continues it.
   */
  readonly needsApproval?: NeedsApproval<INPUT> | undefined;
}

/** When calls of a tool need a person's approval: always, or when the function says so for this input. */
export type NeedsApproval<INPUT = unknown> = boolean | ((input: INPUT, binding: ToolCallBinding) => boolean | Promise<boolean>);

/** What `execute` may return: the value, or the value with artifacts. */
export type ToolOutput<OUTPUT> = OUTPUT | ToolResult<OUTPUT>;

/** Whether `value` is a Ghostlight tool. */
export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && toolMarker in value;
}

/** Marks a frozen tool object (used by the tool factories). */
export function markTool<INPUT, OUTPUT>(fields: Omit<Tool<INPUT, OUTPUT>, typeof toolMarker>): Tool<INPUT, OUTPUT> {
  return Object.freeze({ [toolMarker]: true as const, ...fields });
}
