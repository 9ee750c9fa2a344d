export { stdioMcpTransport } from './stdio-mcp-transport';
export type { StdioMcpTransportOptions } from './stdio-mcp-transport';
