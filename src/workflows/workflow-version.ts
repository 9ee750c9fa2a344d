import * as v from 'valibot';
import { assertCapabilitySnapshot } from '../registry/capability-snapshot.ts';
import type { CapabilitySnapshot } from '../registry/capability-snapshot.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { canonicalJson, isPlainObject } from '../util/json.ts';
import { sha256Hex } from '../util/sha256.ts';
import { compilePlan } from './compile-plan.ts';
import type { WorkflowPlan } from './plan-schema.ts';
import { WorkflowVersionError } from './workflow-errors.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

/**
 * A compiled plan with its tools locked: immutable plain JSON an application can store and load
 * ({@link loadWorkflowVersion}). `id` is `sha256:` of everything else, so equal versions have equal ids and
 * a changed one cannot keep its id.
 */
export interface WorkflowVersion {
  readonly version: 'workflow-version-v1';
  /** `sha256:<hex>` of the canonical JSON of the other fields. */
  readonly id: string;
  /** The workflow's name. */
  readonly workflow: string;
  /** The compiled plan (code hashes pinned, `needs` filled in). */
  readonly plan: WorkflowPlan;
  /** The descriptor hashes of the workflow's tools when the plan was compiled. */
  readonly snapshot: CapabilitySnapshot;
  /** The workflow's input and output JSON Schemas (null when it declared none). */
  readonly inputSchema: JsonSchema | null;
  readonly outputSchema: JsonSchema | null;
  /**
   * The descriptor hashes of the MCP server tools the planner was shown (`<server>/<tool>` → `sha256:…`), when
   * the workflow was planned with a gateway; a run checks them before its first step.
   */
  readonly mcpSnapshot?: Readonly<Record<string, string>>;
}

type VersionBody = Omit<WorkflowVersion, 'id' | 'version'>;

/** Builds a version from its parts, computing its id, deeply frozen. */
export async function createWorkflowVersion(body: VersionBody): Promise<WorkflowVersion> {
  const id = await versionId(body);
  return deepFreeze(structuredClone({ version: 'workflow-version-v1' as const, id, ...body }));
}

const VersionShape = v.looseObject({
  version: v.literal('workflow-version-v1'),
  id: v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/)),
  workflow: v.string(),
  plan: v.unknown(),
  snapshot: v.unknown(),
  inputSchema: v.nullable(v.record(v.string(), v.unknown())),
  outputSchema: v.nullable(v.record(v.string(), v.unknown())),
  mcpSnapshot: v.optional(v.record(v.string(), v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/)))),
});

/**
 * Checks a stored version (parsed JSON) and returns it frozen: its shape, its snapshot, its plan (compiled
 * again against the snapshot's tools, so code hashes are checked) and its id. Throws
 * {@link WorkflowVersionError}, or the plan's `WorkflowCompileError`.
 *
 * @example
 * const version = await loadWorkflowVersion(JSON.parse(await kv.get('review:v3')));
 */
export async function loadWorkflowVersion(value: unknown): Promise<WorkflowVersion> {
  const parsed = v.safeParse(VersionShape, value);
  if (!parsed.success) throw new WorkflowVersionError('A workflow version must be a workflow-version-v1 value made by planWorkflow');
  const stored = parsed.output;
  try {
    assertCapabilitySnapshot(stored.snapshot);
  } catch (error) {
    throw new WorkflowVersionError('The workflow version has an invalid capability snapshot', { cause: error });
  }
  const snapshot = stored.snapshot as CapabilitySnapshot;
  const { plan } = await compilePlan(stored.plan, Object.keys(snapshot.tools));
  const body: VersionBody = {
    workflow: stored.workflow,
    plan,
    snapshot,
    inputSchema: stored.inputSchema as JsonSchema | null,
    outputSchema: stored.outputSchema as JsonSchema | null,
    ...(stored.mcpSnapshot ? { mcpSnapshot: stored.mcpSnapshot } : {}),
  };
  const id = await versionId(body);
  if (id !== stored.id) throw new WorkflowVersionError(`The workflow version's id ${stored.id} does not match its content (${id})`);
  return deepFreeze(structuredClone({ version: 'workflow-version-v1' as const, id, ...body }));
}

/** Whether `value` looks like a workflow version (use {@link loadWorkflowVersion} to check one). */
export function isWorkflowVersion(value: unknown): value is WorkflowVersion {
  return isPlainObject(value) && value.version === 'workflow-version-v1';
}

async function versionId(body: VersionBody): Promise<string> {
  return `sha256:${await sha256Hex(canonicalJson(body))}`;
}
