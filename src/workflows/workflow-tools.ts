import type { ToolSet } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ToolRegistry } from '../registry/tool-registry.ts';
import type { RegistryTool } from '../registry/tool-registry.ts';
import type { Tool } from '../tool/tool.ts';
import type { WorkflowTools } from './planned-workflow.ts';
import { WorkflowMissingToolError } from './workflow-errors.ts';

/** The tools a run supplies: a registry, or a record keyed by id (AI SDK or Ghostlight tools). */
export type RunToolsOption = ToolRegistry | ToolSet | Readonly<Record<string, RegistryTool>>;

/**
 * Resolves a workflow's tool scope to tools by id (seed 002): an inline record or a registry is used as it
 * is; names are looked up in the run's tools, then in `extra` (the MCP gateway's tools). A name found
 * nowhere is a {@link WorkflowMissingToolError}. `ids` restricts the result to the ids a version locked.
 */
export function resolveWorkflowTools(
  workflowName: string,
  scope: WorkflowTools | undefined,
  runTools: RunToolsOption | undefined,
  extra: readonly Tool[],
  ids?: readonly string[],
): Map<string, Tool> {
  const extras = new Map(extra.map((tool) => [tool.name, tool]));
  let source: ToolRegistry;
  let names: readonly string[];
  if (scope === undefined || Array.isArray(scope)) {
    source = asRegistry(runTools);
    names = ids ?? (scope as readonly string[] | undefined) ?? source.ids();
  } else {
    source = asRegistry(scope as ToolRegistry | ToolSet);
    names = ids ?? source.ids();
  }
  const resolved = new Map<string, Tool>();
  for (const id of names) {
    const tool = source.get(id) ?? extras.get(id);
    if (!tool) throw new WorkflowMissingToolError(workflowName, id);
    resolved.set(id, tool);
  }
  return resolved;
}

function asRegistry(tools: RunToolsOption | undefined): ToolRegistry {
  if (tools === undefined) return new ToolRegistry();
  if (tools instanceof ToolRegistry || (tools as { version?: unknown }).version === 'tool-registry-v1') return tools as ToolRegistry;
  if (typeof tools !== 'object' || tools === null) throw new ConfigurationError('Workflow tools must be a ToolRegistry or a record of tools keyed by id');
  return new ToolRegistry().registerAll(tools as Readonly<Record<string, RegistryTool>>);
}
