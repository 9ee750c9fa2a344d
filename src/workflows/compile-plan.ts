import * as v from 'valibot';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { validateJsonSchema } from '../schema/validate-json-schema.ts';
import { defineResultSchema } from '../structured/result-schema.ts';
import { sha256Hex } from '../util/sha256.ts';
import { WorkflowPlanSchema } from './plan-schema.ts';
import type { SandboxPolicy, WorkflowPlan, WorkflowStep } from './plan-schema.ts';
import { templateReferences } from './templates.ts';
import type { TemplateReference } from './templates.ts';
import { WorkflowCompileError } from './workflow-errors.ts';

/** A plan that compiled: normalised (`needs` filled in, code hashes computed, sandbox defaults) and ordered. */
export interface CompiledPlan {
  readonly plan: WorkflowPlan;
  /** Step ids in a dependency order (every step after the steps it needs). */
  readonly order: readonly string[];
}

const JSON_TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);
const DENY_ALL: Required<SandboxPolicy> = { network: 'deny', env: 'deny', fs: 'deny' };

/**
 * Compiles a plan against the workflow's tools (ids): the shape, unique step ids, known `needs`, no cycles,
 * known tools for `tool.call`, resolvable templates (a step reads only the input and steps it depends on,
 * directly or through others), pinned code hashes, valid output schemas and enforceable sandbox policies.
 * Throws {@link WorkflowCompileError} naming the first problem.
 *
 * @example
 * const { order } = await compilePlan(plan, ['fetchCandidates', 'scoreCandidate']);
 */
export async function compilePlan(value: unknown, toolIds: Iterable<string>): Promise<CompiledPlan> {
  const parsed = v.safeParse(WorkflowPlanSchema, value);
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => `${pathOf(issue)} ${issue.message}`);
    throw new WorkflowCompileError('invalid_plan', `The plan is not a workflow-plan-v1 document: ${issues.slice(0, 5).join('; ')}`);
  }
  const plan = parsed.output;
  const tools = new Set(toolIds);
  const byId = new Map<string, WorkflowStep>();
  for (const step of plan.steps) {
    if (byId.has(step.id)) throw new WorkflowCompileError('duplicate_step', `Two steps have the id ${step.id}`, { step: step.id });
    byId.set(step.id, step);
  }
  for (const step of plan.steps) {
    for (const need of step.needs ?? []) {
      if (!byId.has(need)) throw new WorkflowCompileError('unknown_step', `Step ${step.id} needs unknown step ${need}`, { step: step.id });
    }
  }
  const order = topologicalOrder(plan.steps);
  const ancestors = ancestorSets(plan.steps, order);
  const steps: WorkflowStep[] = [];
  for (const step of plan.steps) {
    checkTemplates(step, ancestors.get(step.id)!, byId);
    checkOutput(step);
    if (step.uses === 'tool.call' && !tools.has(step.with.tool)) {
      const known = [...tools].sort().join(', ') || 'none';
      throw new WorkflowCompileError('unknown_tool', `Step ${step.id} calls unknown tool ${step.with.tool}; the workflow's tools are: ${known}`, { step: step.id });
    }
    steps.push(step.uses === 'code.run' ? await compileCode(step) : { ...step, needs: step.needs ?? [] });
  }
  const everyStep = new Set(byId.keys());
  for (const reference of references(plan.output, 'the plan output')) checkReference(reference, everyStep, byId, 'the plan output');
  return { plan: { ...plan, steps }, order };
}

function topologicalOrder(steps: readonly WorkflowStep[]): string[] {
  const remaining = new Map(steps.map((step) => [step.id, new Set(step.needs ?? [])]));
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(([, needs]) => [...needs].every((need) => !remaining.has(need))).map(([id]) => id);
    if (ready.length === 0) {
      throw new WorkflowCompileError('cycle', `The steps ${[...remaining.keys()].join(', ')} depend on each other in a cycle`);
    }
    for (const id of ready) {
      order.push(id);
      remaining.delete(id);
    }
  }
  return order;
}

function ancestorSets(steps: readonly WorkflowStep[], order: readonly string[]): Map<string, Set<string>> {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const sets = new Map<string, Set<string>>();
  for (const id of order) {
    const set = new Set<string>();
    for (const need of byId.get(id)!.needs ?? []) {
      set.add(need);
      for (const above of sets.get(need)!) set.add(above);
    }
    sets.set(id, set);
  }
  return sets;
}

function checkTemplates(step: WorkflowStep, readable: ReadonlySet<string>, byId: ReadonlyMap<string, WorkflowStep>): void {
  const where = `step ${step.id}`;
  const sources = [references(step.input, where)];
  if (step.uses === 'ai.generate') sources.push(references(step.with.prompt, where), references(step.with.instructions, where));
  for (const reference of sources.flat()) checkReference(reference, readable, byId, where);
}

function references(value: unknown, where: string): TemplateReference[] {
  try {
    return templateReferences(value);
  } catch (error) {
    throw new WorkflowCompileError('bad_template', `A template in ${where} cannot be read: ${(error as Error).message}`, stepOption(where));
  }
}

function checkReference(reference: TemplateReference, readable: ReadonlySet<string>, byId: ReadonlyMap<string, WorkflowStep>, where: string): void {
  if (reference.root === 'input') return;
  const { step } = reference.root;
  if (!byId.has(step)) {
    throw new WorkflowCompileError('bad_template', `The template {{ ${reference.text} }} in ${where} refers to unknown step ${step}`, stepOption(where));
  }
  if (!readable.has(step)) {
    throw new WorkflowCompileError(
      'bad_template',
      `The template {{ ${reference.text} }} in ${where} reads step ${step}, which ${where} does not depend on (add it to needs)`,
      stepOption(where),
    );
  }
}

function checkOutput(step: WorkflowStep): void {
  const output = step.output;
  if (step.uses === 'ai.generate' && output?.mode === 'object') {
    if (!output.schema) throw new WorkflowCompileError('invalid_output_schema', `Step ${step.id} generates an object and needs an output schema`, { step: step.id });
    try {
      defineResultSchema({ schema: output.schema, name: 'step_output' }, step.id);
    } catch (error) {
      if (!ConfigurationError.isInstance(error)) throw error;
      throw new WorkflowCompileError('invalid_output_schema', `Step ${step.id} has an output schema a model cannot fill: ${error.message}`, { step: step.id, cause: error });
    }
    return;
  }
  if (output?.schema !== undefined) assertJsonSchema(output.schema, step.id);
}

function assertJsonSchema(schema: Record<string, unknown>, step: string): void {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const invalid = types.find((type) => typeof type !== 'string' || !JSON_TYPES.has(type));
  let problem = invalid === undefined ? undefined : `type ${JSON.stringify(invalid)} is not a JSON Schema type`;
  if (problem === undefined) {
    try {
      validateJsonSchema(schema as JsonSchema, null);
    } catch (error) {
      problem = (error as Error).message;
    }
  }
  if (problem !== undefined) throw new WorkflowCompileError('invalid_output_schema', `Step ${step} has an invalid output schema: ${problem}`, { step });
}

async function compileCode(step: Extract<WorkflowStep, { uses: 'code.run' }>): Promise<WorkflowStep> {
  const { entrypoint, files, sandbox } = step.with;
  const names = Object.keys(files);
  if (!Object.hasOwn(files, entrypoint)) {
    throw new WorkflowCompileError('invalid_plan', `Step ${step.id} runs ${entrypoint}, which is not among its files`, { step: step.id });
  }
  if (names.length !== 1) {
    throw new WorkflowCompileError('invalid_plan', `Step ${step.id} has ${names.length} files; code.run runs one self-contained file (imports between files are not supported)`, { step: step.id });
  }
  const policy = { ...DENY_ALL, ...sandbox };
  for (const [key, value] of Object.entries(policy)) {
    if (value !== 'deny') {
      throw new WorkflowCompileError(
        'unsupported_sandbox_policy',
        `Step ${step.id} asks for ${key} "${value}": Ghostlight's code sandbox has no ${key} access to grant, so it cannot safely execute this code.run step`,
        { step: step.id },
      );
    }
  }
  const file = files[entrypoint]!;
  const computed = await fileHash(file.content);
  if (file.sha256 !== undefined && file.sha256 !== computed) {
    throw new WorkflowCompileError('hash_mismatch', `Step ${step.id}: ${entrypoint} has sha256 ${file.sha256}, but its content hashes to ${computed}`, { step: step.id });
  }
  return { ...step, needs: step.needs ?? [], with: { entrypoint, files: { [entrypoint]: { content: file.content, sha256: computed } }, sandbox: policy } };
}

/** `sha256:<hex>` of a code file's UTF-8 content, as plans pin it. */
export async function fileHash(content: string): Promise<string> {
  return `sha256:${await sha256Hex(content)}`;
}

function stepOption(where: string): { step?: string } {
  return where.startsWith('step ') ? { step: where.slice('step '.length) } : {};
}

function pathOf(issue: v.BaseIssue<unknown>): string {
  let text = '$';
  for (const item of issue.path ?? []) text += typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`;
  return text;
}
