/** The one export of the real MCP server-everything the tests mount (the package ships no types). */
declare module '@modelcontextprotocol/server-everything/dist/server/index.js' {
  import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
  export function createServer(): { server: McpServer; cleanup(sessionId?: string): void };
}
