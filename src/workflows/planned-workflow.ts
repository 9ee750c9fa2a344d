import type { ToolSet } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { RegistryTool, ToolRegistry } from '../registry/tool-registry.ts';
import type { SchemaInput } from '../schema/resolve-schema.ts';

/**
 * The tools a planned workflow may use (seed 002): an AI SDK tool record (or Ghostlight tools keyed by id)
 * wired into every run, a `ToolRegistry`, or names resolved from the run's registry.
 */
export type WorkflowTools = ToolSet | Readonly<Record<string, RegistryTool>> | ToolRegistry | readonly string[];

/** What `defineWorkflow` takes when a model plans the workflow (no `perform`). */
export interface PlannedWorkflowSpec {
  /** The workflow's name (`[A-Za-z0-9_-]`, 1–64 characters). */
  readonly name: string;
  /** What the workflow does; the planner designs the plan from it. */
  readonly description: string;
  /** The schema of the workflow's input. */
  readonly input?: SchemaInput;
  /** The schema of the workflow's output; a run's output is checked against it. */
  readonly output?: SchemaInput;
  /** The tools the plan may use. */
  readonly tools?: WorkflowTools;
}

/** A workflow that a planner model designs; `planWorkflow`/`runWorkflow` (`ghostlight/workflows`) use it. */
export interface PlannedWorkflow extends PlannedWorkflowSpec {
  readonly kind: 'planned-workflow';
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks a planned workflow's definition and freezes it (definitions are data). */
export function definePlannedWorkflow(spec: PlannedWorkflowSpec): PlannedWorkflow {
  if (typeof spec !== 'object' || spec === null) throw new ConfigurationError('a workflow definition must be an object');
  if (typeof spec.name !== 'string' || !NAME.test(spec.name)) {
    throw new ConfigurationError(`workflow name must match ${NAME.source}, got ${JSON.stringify(spec.name)}`);
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new ConfigurationError(`workflow "${spec.name}" needs a description: the planner designs the plan from it`);
  }
  const definition: PlannedWorkflow = { ...spec, kind: 'planned-workflow' };
  if (Array.isArray(spec.tools)) Object.assign(definition, { tools: Object.freeze([...spec.tools]) });
  return Object.freeze(definition);
}

/** Whether `value` is a planned workflow made by `definePlannedWorkflow` (or `defineWorkflow` without `perform`). */
export function isPlannedWorkflow(value: unknown): value is PlannedWorkflow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'planned-workflow';
}
