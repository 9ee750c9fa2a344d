import { ConfigurationError } from '../error/configuration-error.ts';
import { isPlainObject } from '../util/json.ts';
import type { HttpSettings } from './http-exchange.ts';
import { HttpMcpTransport } from './http-transport.ts';
import type { HttpTransportMode } from './http-transport.ts';
import type { McpTransport } from './mcp-transport.ts';
import { mcpUrl } from './mcp-url.ts';

/** How to reach an MCP server: an HTTP(S) URL with its options, or a transport object (e.g. stdio in Node). */
export interface McpConnection {
  /** The server's endpoint, e.g. `https://mcp.example/mcp`. */
  url?: string | URL;
  /** Headers for every request (credentials scoped to this server). */
  headers?: Record<string, string>;
  /** Per-request timeout in milliseconds (60,000). */
  timeoutMs?: number;
  /** Permits plain HTTP to a loopback host (local development). */
  allowInsecureHttp?: boolean;
  /** Largest response body accepted, in bytes (10 MiB). */
  maxResponseBytes?: number;
  /** Signs each request before it is sent (e.g. AWS SigV4); return the request to send. */
  sign?: (request: Request) => Request | Promise<Request>;
  /** The `fetch` to use (a Workers service binding's `fetch`, a test double). */
  fetch?: typeof fetch;
  /** `auto` (Streamable HTTP, falling back to legacy SSE), `streamable-http`, `sse`, or a transport object. */
  transport?: HttpTransportMode | McpTransport;
}

/** A checked connection: HTTP settings, or a caller-made transport. */
export type ResolvedConnection = { kind: 'http'; settings: HttpSettings; mode: HttpTransportMode } | { kind: 'transport'; transport: McpTransport };

const OPTIONS = new Set(['url', 'headers', 'timeoutMs', 'allowInsecureHttp', 'maxResponseBytes', 'sign', 'fetch', 'transport']);
const MODES = new Set(['auto', 'streamable-http', 'sse']);

/** Checks a connection; `owner` names the toolset in errors. Throws `ConfigurationError`. */
export function resolveConnection(value: unknown, owner: string): ResolvedConnection {
  if (!isPlainObject(value)) throw new ConfigurationError(`${owner} connection must resolve to an object`);
  const unknown = Object.keys(value).find((key) => !OPTIONS.has(key));
  if (unknown !== undefined) throw new ConfigurationError(`${owner} connection contains unknown option "${unknown}"`);
  const connection = value as McpConnection;
  if (typeof connection.transport === 'object' && connection.transport !== null) {
    if (connection.transport.version !== 'mcp-transport-v1') throw new ConfigurationError(`${owner} transport must be an mcp-transport-v1 transport`);
    if (Object.keys(value).length > 1) throw new ConfigurationError(`${owner} connection with a transport object takes no other options`);
    return { kind: 'transport', transport: connection.transport };
  }
  const mode = connection.transport ?? 'auto';
  if (!MODES.has(mode)) throw new ConfigurationError(`${owner} connection transport must be auto, streamable-http, sse or a transport object`);
  if (connection.url === undefined || String(connection.url) === '') throw new ConfigurationError(`${owner} connection must include a URL`);
  const headers = connection.headers ?? {};
  if (!isPlainObject(headers) || !Object.values(headers).every((header) => typeof header === 'string')) {
    throw new ConfigurationError(`${owner} connection headers must be a record of strings`);
  }
  const timeoutMs = connection.timeoutMs ?? 60_000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new ConfigurationError(`${owner} connection timeoutMs must be positive`);
  const maxResponseBytes = connection.maxResponseBytes ?? 10 * 1024 * 1024;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1) {
    throw new ConfigurationError(`${owner} connection maxResponseBytes must be a positive integer`);
  }
  for (const key of ['sign', 'fetch'] as const) {
    if (connection[key] !== undefined && typeof connection[key] !== 'function') throw new ConfigurationError(`${owner} connection ${key} must be a function`);
  }
  return {
    kind: 'http',
    mode: mode as HttpTransportMode,
    settings: Object.freeze({
      url: mcpUrl(connection.url, connection.allowInsecureHttp === true),
      headers: Object.freeze({ ...headers }),
      timeoutMs,
      maxResponseBytes,
      sign: connection.sign,
      fetch: connection.fetch ?? globalThis.fetch,
    }),
  };
}

/** Opens the transport of a checked connection (no I/O for Streamable HTTP until the first message). */
export function openTransport(connection: ResolvedConnection): McpTransport {
  return connection.kind === 'transport' ? connection.transport : new HttpMcpTransport(connection.settings, connection.mode);
}
