import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { JsonSchema } from '../schema/json-schema.ts';

/** A step id: a letter, then letters, digits, `_` and `-`, at most 64 characters. */
export const STEP_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

const stepId = v.pipe(v.string(), v.regex(STEP_ID_PATTERN, 'must be a step id ([a-zA-Z][a-zA-Z0-9_-]{0,63})'));
const jsonObject = v.record(v.string(), v.unknown());

/** What a step's output is: `text` (a string) or `object` (any JSON value), checked against `schema` when given. */
const stepOutput = v.strictObject({
  mode: v.picklist(['object', 'text']),
  schema: v.optional(jsonObject),
});

const common = {
  id: stepId,
  description: v.optional(v.string()),
  needs: v.optional(v.array(stepId)),
  input: v.optional(v.unknown()),
  output: v.optional(stepOutput),
};

/** One pinned file of a `code.run` step: its content and `sha256:<hex>` of its UTF-8 bytes. */
const codeFile = v.strictObject({
  content: v.string(),
  sha256: v.optional(v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>'))),
});

/** The sandbox a `code.run` step asks for; every field `deny` by default. */
const sandboxPolicy = v.strictObject({
  network: v.optional(v.picklist(['deny', 'allow'])),
  env: v.optional(v.picklist(['deny', 'allow'])),
  fs: v.optional(v.picklist(['deny', 'read', 'write'])),
});

/**
 * The plan document (`workflow-plan-v1`): steps whose `needs` form a DAG, each `tool.call`, `ai.generate` or
 * `code.run`; `input` and `output` templates over the workflow input and earlier step outputs
 * (`{{ input.jobId }}`, `{{ steps.fetch.output.candidates }}`). Published as JSON Schema by
 * {@link workflowPlanJsonSchema}.
 */
export const WorkflowPlanSchema = v.strictObject({
  version: v.literal('workflow-plan-v1'),
  description: v.optional(v.string()),
  steps: v.pipe(v.array(v.variant('uses', [
    v.strictObject({ ...common, uses: v.literal('tool.call'), with: v.strictObject({ tool: v.string() }) }),
    v.strictObject({
      ...common,
      uses: v.literal('ai.generate'),
      with: v.strictObject({ prompt: v.string(), instructions: v.optional(v.string()) }),
    }),
    v.strictObject({
      ...common,
      uses: v.literal('code.run'),
      with: v.strictObject({ entrypoint: v.string(), files: v.record(v.string(), codeFile), sandbox: v.optional(sandboxPolicy) }),
    }),
  ])), v.minLength(1, 'must have at least one step'), v.maxLength(256, 'must have at most 256 steps')),
  output: v.optional(v.unknown()),
});

/** A plan document as JSON. */
export type WorkflowPlan = v.InferOutput<typeof WorkflowPlanSchema>;
/** One step of a plan. */
export type WorkflowStep = WorkflowPlan['steps'][number];
/** What a step does. */
export type WorkflowStepKind = WorkflowStep['uses'];
/** A `code.run` step's sandbox policy. */
export type SandboxPolicy = v.InferOutput<typeof sandboxPolicy>;

let published: JsonSchema | undefined;

/**
 * The plan format as JSON Schema (draft 2020-12), for planners, editors and storage checks. Computed once,
 * on first use.
 *
 * @example
 * const schema = workflowPlanJsonSchema(); // { type: 'object', properties: { version: { const: 'workflow-plan-v1' }, steps: … } }
 */
export function workflowPlanJsonSchema(): JsonSchema {
  if (!published) {
    const { $schema: _dialect, ...schema } = toJsonSchema(WorkflowPlanSchema, { target: 'draft-2020-12', errorMode: 'ignore' }) as JsonSchema & { $schema?: string };
    published = Object.freeze(schema) as JsonSchema;
  }
  return published;
}
