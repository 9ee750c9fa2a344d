import { resolveSchema } from '../schema/resolve-schema.ts';
import type { SchemaInput } from '../schema/resolve-schema.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { markTool } from './tool.ts';
import type { NeedsApproval, Tool, ToolOutput } from './tool.ts';
import type { ToolBinding, ToolCallBinding } from './tool-binding.ts';
import { assertToolDescription, assertToolName } from './tool-name.ts';

/** The value type a schema produces: the Standard Schema output, an AI SDK schema's type, or `unknown` for JSON Schema. */
export type InferSchemaOutput<SCHEMA> = SCHEMA extends { readonly '~standard': { readonly types?: infer TYPES } }
  ? NonNullable<TYPES> extends { readonly output: infer OUTPUT }
    ? OUTPUT
    : unknown
  : SCHEMA extends { readonly _type: infer TYPE }
    ? TYPE
    : unknown;

/** Options of {@link defineTool}. */
export interface DefineToolOptions<INPUT_SCHEMA extends SchemaInput, OUTPUT> {
  /** The model-visible name: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** The model-visible description of when and how to use the tool. */
  description: string;
  /** The input: a valibot schema, a Standard/AI SDK schema, or a JSON Schema object. */
  input: INPUT_SCHEMA | JsonSchema;
  /** An optional output schema (used in code-mode declarations and capability snapshots). */
  output?: SchemaInput | undefined;
  /** Take the run-wide exclusive lock; a batch containing an exclusive tool runs one call at a time. */
  exclusive?: boolean | undefined;
  /** Whether the tool exists for this run; runs before the tool is used. Discovery, not authorisation. */
  availableIf?: ((binding: ToolBinding) => boolean | Promise<boolean>) | undefined;
  /** Runs the operation. Check permissions here, from `binding.run.invocation`, never from `input`. */
  execute(
    input: InferSchemaOutput<INPUT_SCHEMA>,
    binding: ToolCallBinding,
  ): ToolOutput<OUTPUT> | Promise<ToolOutput<OUTPUT>>;
  /** Releases per-run resources; called once per run that used the tool, in reverse order. */
  close?: ((binding: ToolBinding) => void | Promise<void>) | undefined;
  /**
   * Calls wait for a person's approval before they run: `true`, or a function
   * of the validated input and the binding (AI SDK's `needsApproval`). The run
   * ends `waiting`; `agent.resume` with the answers continues it.
   */
  needsApproval?: NeedsApproval<InferSchemaOutput<INPUT_SCHEMA>> | undefined;
}

/**
 * Defines a tool. The name and description are checked now, the input schema
 * is converted to JSON Schema now (a valibot schema that cannot be converted is
 * a `ConfigurationError`, not a silent failure at the first model call).
 *
 * @example
 * const lookup = defineTool({
 *   name: 'help_center_lookup',
 *   description: 'Look up a help center entry by topic.',
 *   input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
 *   execute: ({ topic }) => entries[topic],
 * });
 */
export function defineTool<INPUT_SCHEMA extends SchemaInput, OUTPUT = unknown>(
  options: DefineToolOptions<INPUT_SCHEMA, OUTPUT>,
): Tool<InferSchemaOutput<INPUT_SCHEMA>, OUTPUT> {
  assertToolName(options.name);
  assertToolDescription(options.description);
  if (typeof options.execute !== 'function') {
    throw new TypeError(`Tool ${options.name} needs an execute function`);
  }
  if (options.needsApproval !== undefined && typeof options.needsApproval !== 'boolean' && typeof options.needsApproval !== 'function') {
    throw new TypeError(`Tool ${options.name}: needsApproval must be a boolean or a function of the input and binding`);
  }
  return markTool({
    name: options.name,
    description: options.description,
    input: resolveSchema<InferSchemaOutput<INPUT_SCHEMA>>(options.input, `The input schema of tool ${options.name}`),
    output: options.output === undefined
      ? undefined
      : resolveSchema<OUTPUT>(options.output, `The output schema of tool ${options.name}`),
    exclusive: options.exclusive === true,
    availableIf: options.availableIf,
    execute: options.execute,
    close: options.close,
    ...(options.needsApproval ? { needsApproval: options.needsApproval as NeedsApproval<InferSchemaOutput<INPUT_SCHEMA>> } : {}),
  });
}
