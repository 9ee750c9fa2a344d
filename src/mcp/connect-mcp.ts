import { McpClient } from './mcp-client.ts';
import type { McpClientOptions } from './mcp-client.ts';
import { openTransport, resolveConnection } from './mcp-connection.ts';
import type { McpConnection } from './mcp-connection.ts';

/** Options of {@link connectMcp}: the connection, the client's name and limits, and a signal for the handshake. */
export interface ConnectMcpOptions extends McpConnection, McpClientOptions {
  signal?: AbortSignal | undefined;
}

/**
 * Connects to an MCP server the application owns (outside any run) and
 * negotiates the protocol. Close the client when done; tools taken from it
 * (e.g. with `registry.attachMcpTools`) call through it.
 *
 * @example
 * await using atlas = await connectMcp({ url: 'https://atlas.example/mcp', headers: { authorization } });
 * registry.attachMcpTools(await atlas.tools(), { prefix: 'atlas' });
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpClient> {
  const { name, limits, signal, ...connection } = options;
  const client = new McpClient(openTransport(resolveConnection(connection, name ?? 'MCP server')), { name, limits });
  try {
    await client.initialize({ signal });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}
