/**
 * MCP: a client over Streamable HTTP (with the legacy SSE fallback) built on
 * web standards, and MCP servers' tools as Ghostlight tools (`mcpToolset`).
 * Stdio transports are in `ghostlight/node`.
 *
 * @module ghostlight/mcp
 */
export { connectMcp } from './connect-mcp.ts';
export type { ConnectMcpOptions } from './connect-mcp.ts';
export { McpClient } from './mcp-client.ts';
export { McpConnectionError } from './mcp-connection-error.ts';
export type { McpClientOptions, McpServerInfo } from './mcp-client.ts';
export type { McpConnection } from './mcp-connection.ts';
export type { McpDefinition } from './mcp-definition.ts';
export { DEFAULT_MCP_LIMITS } from './mcp-limits.ts';
export type { McpLimits } from './mcp-limits.ts';
export { MCP_PROTOCOL_VERSION } from './mcp-protocol.ts';
export type { JsonRpcNotification, JsonRpcRequest } from './mcp-protocol.ts';
export type { McpResult } from './mcp-result.ts';
export type { McpCall, McpResultMapper, McpToolMapper, McpToolsOptions } from './mcp-tools.ts';
export { mcpToolset } from './mcp-toolset.ts';
export type { McpToolsetOptions } from './mcp-toolset.ts';
export type { McpTransport, McpTransportOptions } from './mcp-transport.ts';
export type { HttpTransportMode } from './http-transport.ts';
