import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ProviderError } from '../../error/control-errors.ts';
import { ProtocolError } from '../../error/protocol-error.ts';
import type { JsonRpcNotification, JsonRpcRequest } from '../../mcp/mcp-protocol.ts';
import type { McpTransport, McpTransportOptions } from '../../mcp/mcp-transport.ts';
import { abortReason, throwIfAborted } from '../../util/abort.ts';
import { isPlainObject } from '../../util/json.ts';
import { utf8Length } from '../../util/truncate.ts';

/** Options of {@link stdioMcpTransport}. */
export interface StdioMcpTransportOptions {
  /** The server executable, e.g. `node` or `npx`. */
  command: string;
  args?: readonly string[];
  /** The child's environment (defaults to this process's). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Per-request timeout in milliseconds (60,000). */
  timeoutMs?: number;
  /** Largest message accepted, in bytes (10 MiB). */
  maxResponseBytes?: number;
  /** How long `close` waits for the child to exit before killing it (2,000 ms). */
  closeTimeoutMs?: number;
}

interface Pending {
  resolve(message: unknown): void;
  reject(error: unknown): void;
}

/**
 * MCP over a child process's stdin/stdout (newline-delimited JSON-RPC), for
 * Node only. The process starts with the first message and is stopped by
 * `close` (stdin ended, then killed after `closeTimeoutMs`). Use it as a
 * toolset connection's `transport`; a transport made in the connection
 * function belongs to that run.
 *
 * @example
 * import { stdioMcpTransport } from 'ghostlight/node';
 * const files = mcpToolset({ connection: () => ({ transport: stdioMcpTransport({ command: 'npx', args: ['mcp-server-filesystem', root] }) }) });
 */
export function stdioMcpTransport(options: StdioMcpTransportOptions): McpTransport {
  return new StdioMcpTransport(options);
}

class StdioMcpTransport implements McpTransport {
  readonly version = 'mcp-transport-v1' as const;
  readonly #options: StdioMcpTransportOptions;
  readonly #pending = new Map<number, Pending>();
  #child: ChildProcessWithoutNullStreams | undefined;
  #failure: unknown;
  #stderr = '';
  #closed = false;

  constructor(options: StdioMcpTransportOptions) {
    this.#options = options;
  }

  async request(message: JsonRpcRequest, options: McpTransportOptions): Promise<unknown> {
    throwIfAborted(options.signal);
    const child = this.#start();
    const timeoutMs = this.#options.timeoutMs ?? 60_000;
    return new Promise<unknown>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(message.id);
      };
      const onAbort = () => {
        finish();
        reject(abortReason(options.signal!));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new ProviderError('MCP transport failed: TimeoutError'));
      }, timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(message.id, {
        resolve: (value) => {
          finish();
          resolve(value);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      if (this.#failure !== undefined) this.#pending.get(message.id)?.reject(this.#failure);
      else child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }

  async notify(message: JsonRpcNotification, options: McpTransportOptions): Promise<void> {
    throwIfAborted(options.signal);
    const child = this.#start();
    if (this.#failure !== undefined) throw this.#failure;
    child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), this.#options.closeTimeoutMs ?? 2_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  }

  #start(): ChildProcessWithoutNullStreams {
    if (this.#closed) throw new ProviderError('MCP transport failed: the stdio transport is closed');
    if (this.#child) return this.#child;
    const { command, args = [], env, cwd } = this.#options;
    const child = spawn(command, [...args], { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    const maxBytes = this.#options.maxResponseBytes ?? 10 * 1024 * 1024;
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.#receive(line, maxBytes));
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-4_096);
    });
    child.on('error', (error) => this.#fail(new ProviderError(`MCP transport failed: ${error.name}`, { cause: error })));
    child.on('exit', (code, signal) => this.#fail(new ProviderError(`MCP transport failed: the server exited (${signal ?? code})`, { cause: this.#stderr })));
    child.stdin.on('error', () => undefined);
    return child;
  }

  #receive(line: string, maxBytes: number): void {
    if (line.trim() === '') return;
    if (utf8Length(line) > maxBytes) return this.#fail(new ProtocolError(`MCP response exceeded ${maxBytes} bytes`));
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return this.#fail(new ProtocolError(`MCP returned invalid JSON: ${(error as Error).message}`));
    }
    const id = isPlainObject(message) && ('result' in message || 'error' in message) ? message.id : undefined;
    if (typeof id === 'number') this.#pending.get(id)?.resolve(message);
  }

  #fail(error: unknown): void {
    this.#failure ??= error;
    for (const pending of [...this.#pending.values()]) pending.reject(this.#failure);
  }
}
