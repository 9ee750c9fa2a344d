import { canonicalJson } from '../util/json.ts';
import { sha256Hex } from '../util/sha256.ts';

/** One server's tools, as `mcp_list_tools` returns them. */
export interface McpServerListing {
  readonly server: string;
  /**
   * The server's own instructions from its handshake (at most 4,000 characters): shown to the planner as
   * guidance (seed 002's guide skills). Guidance only: it grants nothing and is not locked.
   */
  readonly instructions?: string;
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string; readonly inputSchema: unknown; readonly outputSchema?: unknown }>;
}

/**
 * The descriptor hashes of listed MCP server tools, keyed `<server>/<tool>`: `sha256:` of the canonical JSON of
 * `{ name, description, inputSchema, outputSchema }`, as the registry hashes its tools.
 */
export async function mcpListingSnapshot(listing: readonly McpServerListing[]): Promise<Record<string, string>> {
  const entries: Array<[string, string]> = [];
  for (const server of listing) {
    for (const tool of server.tools) {
      const descriptor = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? null };
      entries.push([`${server.server}/${tool.name}`, `sha256:${await sha256Hex(canonicalJson(descriptor))}`]);
    }
  }
  return Object.fromEntries(entries);
}
