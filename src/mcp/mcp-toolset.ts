import { assertKnownKeys } from '../agent/option-keys.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ProviderError } from '../error/control-errors.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { markTool } from '../tool/tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import { McpClient } from './mcp-client.ts';
import type { McpClientOptions } from './mcp-client.ts';
import { openTransport, resolveConnection } from './mcp-connection.ts';
import type { McpConnection } from './mcp-connection.ts';
import { resolveMcpLimits } from './mcp-limits.ts';
import type { McpResultMapper, McpToolMapper } from './mcp-tools.ts';

/** Options of {@link mcpToolset}. */
export interface McpToolsetOptions extends McpClientOptions {
  /** The server: a connection, or a function of the run's binding returning one (per-actor credentials). */
  connection: McpConnection | ((binding: ToolBinding) => McpConnection | Promise<McpConnection>);
  /** Chooses, renames and configures the generated tools. */
  mapTool?: McpToolMapper;
  /** Turns results into values (and artifacts). */
  mapResult?: McpResultMapper;
  /** Discovery failures (`ProviderError`, `ProtocolError`, `ToolError`) give no tools instead of failing the run. */
  optional?: boolean;
  /** Sees the discovery failures an `optional` toolset absorbs. What it throws propagates. */
  onError?: (error: unknown, context: { readonly binding: ToolBinding }) => void | Promise<void>;
}

/**
 * A tool provider for one MCP server: each run opens its own session (the
 * connection may depend on the run, e.g. the actor's credentials), lists the
 * server's tools and offers them to the agent; the session closes when the
 * run ends, whatever the outcome. A server with no tools is an empty toolset.
 *
 * Failures of the application's own callbacks (the connection function, a
 * signer, `mapTool`), configuration errors, cancellation and deadlines
 * always propagate, even for an `optional` toolset.
 *
 * @example
 * const helpCenter = mcpToolset({
 *   name: 'help-center',
 *   connection: (binding) => ({ url: 'https://mcp.example/mcp', headers: { authorization: tokenFor(binding.run.invocation.actorId) } }),
 *   mapTool: (tool, { definition }) => (definition.annotations.destructiveHint ? null : tool),
 *   optional: true,
 * });
 * const agent = defineAgent({ name: 'support', model, tools: [helpCenter] });
 */
const TOOLSET_OPTION_KEYS = ['name', 'limits', 'connection', 'mapTool', 'mapResult', 'optional', 'onError'];

export function mcpToolset(options: McpToolsetOptions): (binding: ToolBinding) => Promise<Tool[]> {
  const name = options.name ?? 'MCP toolset';
  assertKnownKeys(options, TOOLSET_OPTION_KEYS, `mcpToolset(${name})`, { url: 'connection (connection: { url })', headers: 'connection (connection: { headers })' });
  const { connection, mapTool, mapResult, optional, onError } = options;
  if (typeof connection !== 'function') resolveConnection(connection, name);
  resolveMcpLimits(options.limits);
  for (const [key, value] of Object.entries({ mapTool, mapResult, onError })) {
    if (value !== undefined && typeof value !== 'function') throw new ConfigurationError(`${name} ${key} must be a function`);
  }

  return async (binding: ToolBinding): Promise<Tool[]> => {
    // The first failure of an application callback: it propagates as it is, optional or not.
    let callbackFailure: { error: unknown } | undefined;
    const guarded = <ARGS extends unknown[], RESULT>(callback: (...args: ARGS) => RESULT) =>
      async (...args: ARGS): Promise<Awaited<RESULT>> => {
        try {
          return await callback(...args);
        } catch (error) {
          callbackFailure ??= { error };
          throw error;
        }
      };
    let client: McpClient | undefined;
    const operation = binding.operation?.start('mcp_discovery', { server: name });
    try {
      const resolved = typeof connection === 'function' ? await guarded(connection)(binding) : connection;
      const checked = resolveConnection(resolved, name);
      const sign = checked.kind === 'http' ? checked.settings.sign : undefined;
      const transport = openTransport(sign && checked.kind === 'http' ? { ...checked, settings: { ...checked.settings, sign: guarded(sign) } } : checked);
      client = new McpClient(transport, { name, limits: options.limits });
      const tools = await client.tools({ mapTool: mapTool && guarded(mapTool), mapResult, binding: operation ? { ...binding, operation } : binding });
      operation?.finish({ toolCount: tools.length });
      if (tools.length === 0) {
        await client.close();
        return [];
      }
      return ownedBy(client, tools);
    } catch (error) {
      operation?.finish({}, error);
      await client?.close().catch(() => undefined);
      if (callbackFailure) throw callbackFailure.error;
      if (!optional || !isDiscoveryFailure(error)) throw error;
      await onError?.(error, { binding });
      return [];
    }
  };
}

/** The tools, each closing the run's session when the run closes its tools (the first close ends it). */
function ownedBy(client: McpClient, tools: readonly Tool[]): Tool[] {
  let closing: Promise<void> | undefined;
  const closeSession = () => (closing ??= client.close());
  return tools.map((tool) => {
    const own = tool.close;
    return markTool({
      ...tool,
      async close(binding: ToolBinding) {
        try {
          if (own) await own(binding);
        } finally {
          await closeSession();
        }
      },
    });
  });
}

function isDiscoveryFailure(error: unknown): boolean {
  return ProviderError.isInstance(error) || ProtocolError.isInstance(error) || ToolError.isInstance(error);
}
