import type { TraceContext } from '../instrumentation/trace-context.ts';
import type { JsonRpcNotification, JsonRpcRequest } from './mcp-protocol.ts';

/**
 * How an MCP client reaches its server: one session with one server. The HTTP
 * transports (Streamable HTTP, legacy SSE) work wherever `fetch` does; stdio
 * lives in the Node adapter (`ghostlight/node`). A client owns its transport
 * and closes it.
 */
export interface McpTransport {
  readonly version: 'mcp-transport-v1';
  /** Sends a request and resolves with the server's response message (the raw JSON-RPC envelope). */
  request(message: JsonRpcRequest, options: McpTransportOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(message: JsonRpcNotification, options: McpTransportOptions): Promise<void>;
  /** Ends the session and releases the connection. Closing twice is a no-op. */
  close(): Promise<void>;
}

/** Per-message options of a transport. */
export interface McpTransportOptions {
  /** Aborts the exchange (the run's signal); the transport rejects with the abort reason. */
  readonly signal?: AbortSignal | undefined;
  /** The W3C trace context to send (`traceparent`, `tracestate` headers over HTTP). */
  readonly traceContext?: TraceContext | undefined;
}
