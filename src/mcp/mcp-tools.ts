import { ConfigurationError } from '../error/configuration-error.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import { serialize } from '../tool/invoke-tool.ts';
import { isTool, markTool } from '../tool/tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding, ToolCallBinding } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import { assertToolDescription, assertToolName } from '../tool/tool-name.ts';
import { isToolResult, toolResult } from '../tool/tool-result.ts';
import { isPlainObject } from '../util/json.ts';
import type { McpClient } from './mcp-client.ts';
import type { McpDefinition } from './mcp-definition.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { defaultValue, imageArtifacts } from './mcp-result.ts';
import type { McpResult } from './mcp-result.ts';

/** One call of an MCP tool, as `mapResult` sees it. */
export interface McpCall {
  /** The definition whose `sourceName` was sent to the server. */
  readonly definition: McpDefinition;
  /** The (validated, frozen) arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The binding of the tool call (run, identity, signal). */
  readonly binding: ToolCallBinding;
}

/**
 * Chooses and configures each generated tool: return it, a tool derived from
 * it (`{ ...tool, name: 'knowledge_search', exclusive: true }`), or `null` to
 * omit it. Renaming never changes the name sent to the server.
 */
export type McpToolMapper = (
  tool: Tool,
  context: { readonly definition: McpDefinition; readonly binding: ToolBinding | undefined },
) => Tool | null | undefined | false | Promise<Tool | null | undefined | false>;

/**
 * Turns a result into the tool's value: return the result itself to keep the
 * default, any value, or `toolResult({ value, artifacts })`. Images in the
 * result are added as artifacts either way.
 */
export type McpResultMapper = (result: McpResult, context: { readonly call: McpCall; readonly binding: ToolCallBinding }) => unknown;

/** Options of {@link McpClient.tools}. */
export interface McpToolsOptions {
  mapTool?: McpToolMapper | undefined;
  mapResult?: McpResultMapper | undefined;
  /** The run the tools are discovered for (seen by `mapTool`; its signal cancels discovery). */
  binding?: ToolBinding | undefined;
}

/** Builds, maps and checks the tools of `definitions` (see {@link McpClient.tools}). */
export async function buildMcpTools(
  client: McpClient,
  definitions: readonly McpDefinition[],
  options: McpToolsOptions,
): Promise<Array<{ tool: Tool; definition: McpDefinition }>> {
  const built: Array<{ tool: Tool; definition: McpDefinition }> = [];
  const sources = new Map<string, string>();
  for (const definition of definitions) {
    const generated = generatedTool(client, definition, options.mapResult);
    let tool: Tool | undefined = generated;
    if (options.mapTool) {
      const mapTool = options.mapTool;
      const mapped = await mapTool(generated, { definition, binding: options.binding });
      tool = mapped ? derivedTool(mapped, generated) : undefined;
    }
    if (tool?.availableIf && options.binding) {
      const { availableIf } = tool;
      const binding = options.binding;
      tool = (await availableIf(binding)) ? markTool({ ...tool, availableIf: undefined }) : undefined;
    }
    if (!tool) continue;
    const existing = sources.get(tool.name);
    if (existing !== undefined && existing !== definition.sourceName) {
      throw new ConfigurationError(`MCP tools "${existing}" and "${definition.sourceName}" map to "${tool.name}"`);
    }
    if (existing !== undefined) continue;
    sources.set(tool.name, definition.sourceName);
    built.push({ tool, definition });
  }
  return built;
}

function generatedTool(client: McpClient, definition: McpDefinition, mapResult: McpResultMapper | undefined): Tool {
  const what = `MCP tool ${definition.sourceName}`;
  return markTool({
    name: definition.name,
    description: definition.description,
    input: resolveSchema(definition.inputSchema, `The input schema of ${what}`),
    output: definition.outputSchema === undefined ? undefined : resolveSchema(definition.outputSchema, `The output schema of ${what}`),
    exclusive: false,
    availableIf: undefined,
    close: undefined,
    async execute(input, binding) {
      const args = deepFreeze(structuredClone(isPlainObject(input) ? input : {}));
      const result = await client.callTool(definition, args, { signal: binding.signal, traceContext: binding.operation?.traceContext() });
      const call: McpCall = Object.freeze({ definition, arguments: args, binding });
      const mapped = mapResult ? await mapResult(result, { call, binding }) : result;
      const images = imageArtifacts(result, client.limits);
      const value = mapped === result ? defaultValue(result) : isToolResult(mapped) ? mapped.value : mapped;
      const artifacts = isToolResult(mapped) ? [...mapped.artifacts, ...images] : images;
      if (result.isError) throw new ToolError(serialize(value));
      return artifacts.length > 0 ? toolResult({ value, artifacts }) : value;
    },
  });
}

function derivedTool(mapped: unknown, generated: Tool): Tool {
  if (mapped === generated) return generated;
  if (!isTool(mapped) || mapped.execute !== generated.execute) {
    throw new ConfigurationError('MCP tool mapper must return the generated tool, a tool derived from it, or null');
  }
  assertToolName(mapped.name);
  assertToolDescription(mapped.description);
  return markTool({ ...mapped });
}
