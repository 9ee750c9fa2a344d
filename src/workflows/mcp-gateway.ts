import * as v from 'valibot';
import { createArtifact } from '../content/artifact.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { CleanupError } from '../error/control-errors.ts';
import { connectMcp } from '../mcp/connect-mcp.ts';
import type { McpClient } from '../mcp/mcp-client.ts';
import type { McpConnection } from '../mcp/mcp-connection.ts';
import { defaultValue } from '../mcp/mcp-result.ts';
import type { McpTransport } from '../mcp/mcp-transport.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { ToolError } from '../tool/tool-error.ts';
import { toolResult } from '../tool/tool-result.ts';
import { utf8Length } from '../util/truncate.ts';
import type { McpServerListing } from './mcp-listing.ts';

/** One MCP server a workflow (or agent) may reach through the gateway. */
export interface McpServerDeclaration {
  /** The server's id (`[a-zA-Z][a-zA-Z0-9_-]*`), which gateway calls name. */
  readonly id: string;
  /** What the server offers; shown in `mcp_list_tools`'s description. */
  readonly description: string;
  /**
   * How to reach it: a Streamable HTTP connection (`{ url, headers, … }`), a transport, or a function making
   * one per connection (`() => stdioMcpTransport({ command, args })` from `ghostlight/node`: a transport
   * serves one connection, so a declaration reused across runs needs the function).
   */
  readonly transport: McpConnection | McpTransport | (() => McpConnection | McpTransport);
}

/** Options of {@link mcpGateway}. */
export interface McpGatewayOptions {
  /** Results whose JSON is longer than this many bytes are spooled to an artifact (default 64 KiB). */
  readonly maxResultBytes?: number;
}

/**
 * The gateway tools over a set of MCP servers: `mcp_list_tools` and `mcp_call_tool`. It owns its
 * connections: each opens on first use and `close()` (or `await using`) ends them all.
 */
export interface McpGateway extends AsyncDisposable {
  /** `mcp_list_tools` and `mcp_call_tool`. */
  readonly tools: readonly Tool[];
  /** Lists the servers' tools (connecting to each), as `mcp_list_tools` does; the planner is shown this. */
  list(signal?: AbortSignal): Promise<McpServerListing[]>;
  /** Closes every connection it opened. */
  close(): Promise<void>;
}

const SERVER_ID = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const PREVIEW_BYTES = 2_048;
const MAX_INSTRUCTIONS = 4_000;

/**
 * Exposes MCP servers as two ordinary tools (seed 002's declarative MCP): `mcp_list_tools({ server? })`
 * lists the servers' tools, `mcp_call_tool({ server, name, arguments })` calls one. Oversized results are
 * spooled to an artifact (the value keeps a preview). `runWorkflow(…, { mcp: { servers } })` makes and
 * closes one per run; agents can list `gateway.tools` and close it themselves.
 *
 * @example
 * await using gateway = mcpGateway([{ id: 'atlas', description: 'Search Atlas documents.', transport: { url: 'https://atlas.example/mcp' } }]);
 * const agent = defineAgent({ name: 'researcher', model, tools: [...gateway.tools] });
 */
export function mcpGateway(servers: readonly McpServerDeclaration[], options: McpGatewayOptions = {}): McpGateway {
  if (!Array.isArray(servers) || servers.length === 0) throw new ConfigurationError('mcpGateway needs at least one server');
  const byId = new Map<string, McpServerDeclaration>();
  for (const server of servers) {
    if (typeof server?.id !== 'string' || !SERVER_ID.test(server.id)) throw new ConfigurationError(`MCP server id must match ${SERVER_ID.source}: ${String(server?.id)}`);
    if (byId.has(server.id)) throw new ConfigurationError(`Two MCP servers have the id ${server.id}`);
    if (typeof server.description !== 'string' || server.description.trim() === '') throw new ConfigurationError(`MCP server ${server.id} needs a description`);
    byId.set(server.id, server);
  }
  const maxResultBytes = options.maxResultBytes ?? 65_536;
  const clients = new Map<string, Promise<McpClient>>();
  let closed = false;
  const client = (id: string, signal: AbortSignal): Promise<McpClient> => {
    if (closed) throw new ToolError('The MCP gateway is closed');
    const server = byId.get(id);
    if (!server) throw new ToolError(`Unknown MCP server: ${id}. Servers: ${[...byId.keys()].join(', ')}`);
    let pending = clients.get(id);
    if (!pending) {
      const declared = typeof server.transport === 'function' ? server.transport() : server.transport;
      const connection: McpConnection = (declared as McpTransport).version === 'mcp-transport-v1' ? { transport: declared as McpTransport } : (declared as McpConnection);
      pending = connectMcp({ ...connection, name: id, signal });
      pending.catch(() => clients.delete(id));
      clients.set(id, pending);
    }
    return pending;
  };
  const listing = async (ids: readonly string[], signal: AbortSignal): Promise<McpServerListing[]> => {
    const out: McpServerListing[] = [];
    for (const id of ids) {
      const connected = await client(id, signal);
      const definitions = await connected.definitions({ signal });
      const instructions = connected.server?.instructions;
      out.push({
        server: id,
        ...(instructions ? { instructions: instructions.slice(0, MAX_INSTRUCTIONS) } : {}),
        tools: definitions.map((definition) => ({
          name: definition.sourceName,
          description: definition.description,
          inputSchema: definition.inputSchema,
          ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
        })),
      });
    }
    return out;
  };
  const serverLines = [...byId.values()].map((server) => `- ${server.id}: ${server.description}`).join('\n');
  const list = defineTool({
    name: 'mcp_list_tools',
    description: `List the tools of the MCP servers (all, or one server's). Servers:\n${serverLines}`,
    input: v.strictObject({ server: v.optional(v.string()) }),
    async execute({ server }, binding) {
      return { servers: await listing(server === undefined ? [...byId.keys()] : [server], binding.signal) };
    },
  });
  const call = defineTool({
    name: 'mcp_call_tool',
    description: 'Call one tool of an MCP server with its arguments (see mcp_list_tools for names and schemas).',
    input: v.strictObject({ server: v.string(), name: v.string(), arguments: v.optional(v.record(v.string(), v.unknown())) }),
    async execute({ server, name, arguments: args }, binding) {
      const result = await (await client(server, binding.signal)).callTool(name, args ?? {}, { signal: binding.signal });
      const value = defaultValue(result);
      if (result.isError) throw new ToolError(typeof value === 'string' ? value : JSON.stringify(value));
      const text = JSON.stringify(value) ?? '';
      const bytes = utf8Length(text);
      if (bytes <= maxResultBytes) return value;
      const artifact = createArtifact({ data: text, mediaType: 'application/json', name: `${server}-${name}-result.json`.replace(/[^a-zA-Z0-9_.-]/g, '_') });
      return toolResult({ value: { spooled: true, bytes, preview: text.slice(0, PREVIEW_BYTES), artifact: artifact.name }, artifacts: [artifact] });
    },
  });
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    const failures: unknown[] = [];
    for (const pending of [...clients.values()].reverse()) {
      try {
        await (await pending.catch(() => undefined))?.close();
      } catch (error) {
        failures.push(error);
      }
    }
    clients.clear();
    if (failures.length > 0) throw new CleanupError({ errors: failures, message: 'Closing the MCP gateway failed' });
  };
  return Object.freeze({
    tools: Object.freeze([list, call] as unknown as Tool[]),
    list: (signal?: AbortSignal) => listing([...byId.keys()], signal ?? new AbortController().signal),
    close,
    [Symbol.asyncDispose]: close,
  });
}
