import { ProtocolError } from '../error/protocol-error.ts';
import { UseAfterDisposeError } from '../lifetime/async-scope.ts';
import type { Tool } from '../tool/tool.ts';
import { throwIfAborted } from '../util/abort.ts';
import { isPlainObject } from '../util/json.ts';
import { utf8Length } from '../util/truncate.ts';
import { buildDefinition, mcpToolName } from './mcp-definition.ts';
import type { McpDefinition } from './mcp-definition.ts';
import { resolveMcpLimits } from './mcp-limits.ts';
import type { McpLimits } from './mcp-limits.ts';
import { MCP_CLIENT_INFO, MCP_PROTOCOL_VERSION, resultOf } from './mcp-protocol.ts';
import { buildResult } from './mcp-result.ts';
import type { McpResult } from './mcp-result.ts';
import { definitionComplexity } from './mcp-schema-checks.ts';
import { buildMcpTools } from './mcp-tools.ts';
import type { McpToolsOptions } from './mcp-tools.ts';
import type { McpTransport, McpTransportOptions } from './mcp-transport.ts';

/** What the server said about itself in `initialize`. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  /** The negotiated protocol version (always {@link MCP_PROTOCOL_VERSION}). */
  readonly protocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions: string | undefined;
}

/** Options of {@link McpClient}. */
export interface McpClientOptions {
  /** Names the server in descriptions and errors (`MCP tool from <name>`). */
  name?: string | undefined;
  /** Catalog, schema and media limits over the defaults. */
  limits?: Partial<McpLimits> | undefined;
}

/**
 * A client for one MCP server session: negotiates protocol
 * {@link MCP_PROTOCOL_VERSION} once (concurrent callers share it), lists the
 * server's tools within the limits and turns them into Ghostlight tools, and
 * calls them. It owns its transport: `close()` (or `await using`) ends the
 * session. One client serves one authenticated identity; never share it
 * across tenants.
 *
 * @example
 * await using client = await connectMcp({ url: 'https://mcp.example/mcp', headers: { authorization } });
 * const tools = await client.tools();
 */
export class McpClient implements AsyncDisposable {
  /** The name used in descriptions and errors. */
  readonly name: string;
  /** The limits in force. */
  readonly limits: McpLimits;
  readonly #transport: McpTransport;
  readonly #definitions = new Map<string, McpDefinition>();
  #nextId = 0;
  #initializing: Promise<McpServerInfo> | undefined;
  #server: McpServerInfo | undefined;
  #closed = false;

  constructor(transport: McpTransport, options: McpClientOptions = {}) {
    this.#transport = transport;
    this.name = options.name ?? 'MCP server';
    this.limits = resolveMcpLimits(options.limits);
  }

  /** The server's `initialize` answer, once negotiated. */
  get server(): McpServerInfo | undefined {
    return this.#server;
  }

  /** Negotiates the protocol (once) and sends `notifications/initialized`. */
  initialize(options: McpTransportOptions = {}): Promise<McpServerInfo> {
    this.#assertOpen();
    if (!this.#initializing) {
      this.#initializing = this.#negotiate(options);
      this.#initializing.catch(() => {
        this.#initializing = undefined;
      });
    }
    return this.#initializing;
  }

  /**
   * The server's tool definitions, all pages, within the catalog limits. A
   * server without the `tools` capability has none (no `tools/list` is sent).
   */
  async definitions(options: McpTransportOptions = {}): Promise<McpDefinition[]> {
    const server = await this.initialize(options);
    if (!isPlainObject(server.capabilities.tools)) return [];
    const limits = this.limits;
    const definitions: McpDefinition[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    let bytes = 0;
    let nodes = 0;
    for (let page = 1; ; page++) {
      if (page > limits.maxPages) throw new ProtocolError(`MCP tools/list exceeded ${limits.maxPages} pages`);
      const result = await this.request('tools/list', cursor === undefined ? {} : { cursor }, options);
      const tools = result.tools ?? [];
      if (!Array.isArray(tools)) throw new ProtocolError('MCP tools/list tools must be an array');
      for (const raw of tools) {
        const complexity = definitionComplexity(raw, limits);
        bytes += complexity.bytes;
        nodes += complexity.nodes;
        if (bytes > limits.maxDiscoveryBytes) throw new ProtocolError(`MCP tools/list exceeded the ${limits.maxDiscoveryBytes}-byte definition limit`);
        if (nodes > limits.maxDiscoveryNodes) throw new ProtocolError(`MCP tools/list exceeded the ${limits.maxDiscoveryNodes}-node definition limit`);
        definitions.push(buildDefinition(raw, this.name, limits));
        if (definitions.length > limits.maxTools) throw new ProtocolError(`MCP tools/list exceeded ${limits.maxTools} tools`);
      }
      const next = result.nextCursor;
      if (next === undefined || next === null) break;
      if (typeof next !== 'string' || next.length === 0) throw new ProtocolError('MCP tools/list nextCursor must be a non-empty string');
      if (utf8Length(next) > limits.maxCursorBytes) {
        throw new ProtocolError(`MCP tools/list nextCursor exceeded the ${limits.maxCursorBytes}-byte limit`);
      }
      if (seenCursors.has(next)) throw new ProtocolError('MCP tools/list repeated a pagination cursor');
      seenCursors.add(next);
      bytes += utf8Length(next);
      if (bytes > limits.maxDiscoveryBytes) throw new ProtocolError(`MCP tools/list exceeded the ${limits.maxDiscoveryBytes}-byte definition limit`);
      cursor = next;
    }
    throwIfAborted(options.signal);
    return definitions;
  }

  /**
   * The server's tools as Ghostlight tools, named `[a-zA-Z0-9_-]{1,64}`
   * (`mapTool` may omit or rename them; the server is still called by its
   * own name). Two tools with one name are a `ConfigurationError`.
   */
  async tools(options: McpToolsOptions = {}): Promise<Tool[]> {
    const definitions = await this.definitions({ signal: options.binding?.signal, traceContext: options.binding?.operation?.traceContext() });
    const built = await buildMcpTools(this, definitions, options);
    this.#definitions.clear();
    for (const { tool, definition } of built) this.#definitions.set(tool.name, definition);
    return built.map(({ tool }) => tool);
  }

  /**
   * Calls a tool: by definition, by a model-facing name from {@link tools},
   * or by the server's own name. Returns the checked result (a result that
   * breaks its `outputSchema` is a `ProtocolError`; a JSON-RPC error is a
   * `ToolError` with the server's message).
   */
  async callTool(tool: McpDefinition | string, args: Record<string, unknown>, options: McpTransportOptions = {}): Promise<McpResult> {
    await this.initialize(options);
    const definition = typeof tool === 'string' ? this.#definitions.get(tool) : tool;
    const sourceName = typeof tool === 'string' ? (definition?.sourceName ?? tool) : tool.sourceName;
    const raw = await this.request('tools/call', { name: sourceName, arguments: args }, options);
    return buildResult(raw, definition);
  }

  /** Sends one request and returns its checked result object (for methods this client does not wrap). */
  async request(method: string, params: Record<string, unknown>, options: McpTransportOptions = {}): Promise<Record<string, unknown>> {
    this.#assertOpen();
    throwIfAborted(options.signal);
    const id = ++this.#nextId;
    const response = await this.#transport.request({ jsonrpc: '2.0', id, method, params }, options);
    throwIfAborted(options.signal);
    return resultOf(response, id);
  }

  /** Ends the session and closes the transport. Closing twice is a no-op. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The model-facing name a server tool name gets by default. */
  static toolName(sourceName: string): string {
    return mcpToolName(sourceName);
  }

  async #negotiate(options: McpTransportOptions): Promise<McpServerInfo> {
    const { signal } = options;
    const result = await this.request(
      'initialize',
      { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { ...MCP_CLIENT_INFO } },
      options,
    );
    if (result.protocolVersion !== MCP_PROTOCOL_VERSION) {
      throw new ProtocolError(`MCP server did not negotiate protocol ${MCP_PROTOCOL_VERSION}`);
    }
    if (!isPlainObject(result.capabilities)) throw new ProtocolError('MCP initialize result must include capabilities');
    const info = result.serverInfo;
    if (!isPlainObject(info) || typeof info.name !== 'string' || info.name === '' || typeof info.version !== 'string' || info.version === '') {
      throw new ProtocolError('MCP initialize result must include serverInfo name and version');
    }
    await this.#transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, options);
    throwIfAborted(signal);
    this.#server = Object.freeze({
      name: info.name,
      version: info.version,
      protocolVersion: result.protocolVersion,
      capabilities: Object.freeze(structuredClone(result.capabilities)),
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    });
    return this.#server;
  }

  #assertOpen(): void {
    if (this.#closed) throw new UseAfterDisposeError('The MCP client');
  }
}
