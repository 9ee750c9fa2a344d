import { ProtocolError } from '../error/protocol-error.ts';
import { ToolError } from '../tool/tool-error.ts';
import { isPlainObject } from '../util/json.ts';

/** The Model Context Protocol version Ghostlight requests and accepts. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** How Ghostlight introduces itself in `initialize`. */
export const MCP_CLIENT_INFO = Object.freeze({ name: 'ghostlight', version: '0.1.0' });

/** A JSON-RPC 2.0 request. */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number;
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** A JSON-RPC 2.0 notification (no id, no response). */
export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * Checks a response envelope against the request it answers and returns its
 * `result` object. A JSON-RPC error becomes a `ToolError` with the server's
 * message; anything malformed is a `ProtocolError`.
 */
export function resultOf(response: unknown, expectedId: number): Record<string, unknown> {
  if (!isPlainObject(response)) throw new ProtocolError('MCP response must be an object');
  if (response.jsonrpc !== '2.0') throw new ProtocolError('MCP response must use JSON-RPC 2.0');
  if (!Object.hasOwn(response, 'id') || response.id !== expectedId) throw new ProtocolError('MCP response ID did not match its request');
  const hasResult = Object.hasOwn(response, 'result');
  const hasError = Object.hasOwn(response, 'error');
  if (hasResult === hasError) throw new ProtocolError('MCP response must include exactly one of result or error');
  if (hasError) {
    const error = response.error;
    if (!isPlainObject(error)) throw new ProtocolError('MCP response error must be an object');
    if (!Number.isInteger(error.code) || typeof error.message !== 'string') {
      throw new ProtocolError('MCP response error must include an integer code and string message');
    }
    throw new ToolError(error.message.length === 0 ? 'MCP request failed' : error.message);
  }
  if (!isPlainObject(response.result)) throw new ProtocolError('MCP response did not include a result object');
  return response.result;
}
