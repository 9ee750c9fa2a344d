import { RunFailedError } from '../error/run-failed-error.ts';
import { descriptorHash } from '../registry/tool-descriptor.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import { validateJsonSchema } from '../schema/validate-json-schema.ts';
import type { Tool } from '../tool/tool.ts';
import type { McpGateway } from './mcp-gateway.ts';
import { mcpListingSnapshot } from './mcp-listing.ts';
import type { PlannedWorkflow } from './planned-workflow.ts';
import type { WorkflowVersion } from './workflow-version.ts';

/** Fails the run with `capability_drift` when a tool's live descriptor no longer matches the version's snapshot. */
export async function checkDrift(version: WorkflowVersion, tools: ReadonlyMap<string, Tool>): Promise<void> {
  for (const [id, tool] of tools) {
    if ((await descriptorHash(tool)) !== version.snapshot.tools[id]) {
      throw new RunFailedError('capability_drift', `Tool ${id} no longer matches the capability snapshot of workflow version ${version.id}; plan the workflow again`);
    }
  }
}

/** Fails the run with `invalid_input` when the input does not match the workflow's input schema. */
export async function checkInput(version: WorkflowVersion, workflow: PlannedWorkflow | undefined, input: unknown): Promise<void> {
  const issues = await issuesOf(workflow?.input, version.inputSchema, input, `The input schema of workflow ${version.workflow}`);
  if (issues.length > 0) throw new RunFailedError('invalid_input', `The workflow input does not match its schema: ${issues.slice(0, 5).join('; ')}`);
}

/** Fails the run with `invalid_output` when the output does not match the workflow's output schema. */
export async function checkOutput(version: WorkflowVersion, workflow: PlannedWorkflow | undefined, output: unknown): Promise<void> {
  const issues = await issuesOf(workflow?.output, version.outputSchema, output, `The output schema of workflow ${version.workflow}`);
  if (issues.length > 0) throw new RunFailedError('invalid_output', `The workflow output does not match its schema: ${issues.slice(0, 5).join('; ')}`);
}

async function issuesOf(schema: object | undefined, jsonSchema: JsonSchema | null, value: unknown, what: string): Promise<string[]> {
  if (schema !== undefined) {
    const checked = await resolveSchema(schema, what).check(value);
    return checked.success ? [] : checked.issues;
  }
  return jsonSchema === null ? [] : validateJsonSchema(jsonSchema, value);
}

/**
 * Fails the run with `capability_drift` when an MCP server tool the planner was shown (the version's
 * `mcpSnapshot`) is gone or changed: the gateway lists the servers' tools again before the first step.
 */
export async function checkMcpDrift(version: WorkflowVersion, gateway: McpGateway | undefined, signal: AbortSignal): Promise<void> {
  const locked = version.mcpSnapshot;
  if (!locked || !gateway) return;
  const live = await mcpListingSnapshot(await gateway.list(signal));
  for (const [key, hash] of Object.entries(locked)) {
    if (live[key] !== hash) {
      throw new RunFailedError('capability_drift', `MCP tool ${key} ${live[key] === undefined ? 'is gone from its server' : 'no longer matches the capability snapshot'} of workflow version ${version.id}; plan the workflow again`);
    }
  }
}
