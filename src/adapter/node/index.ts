export { stdioMcpTransport } from './stdio-mcp-transport.ts';
export type { StdioMcpTransportOptions } from './stdio-mcp-transport.ts';
