import { ToolError } from '../tool/tool-error.ts';
import { throwIfAborted } from '../util/abort.ts';
import type { SandboxView } from '../sandbox/sandbox-view.ts';

const encoder = new TextEncoder();

/** Raised when a command runs past the shell's time limit (exit status 124). */
export class ShellTimeout extends Error {
  override readonly name = 'ShellTimeout';
}

/** A bounded output stream: keeps at most `limit` UTF-8 bytes and remembers whether more was written. */
export class OutputBuffer {
  readonly #limit: number;
  #parts: string[] = [];
  #bytes = 0;
  #truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether output was cut at the limit. */
  get truncated(): boolean {
    return this.#truncated;
  }

  write(text: string): void {
    if (this.#truncated || text.length === 0) return;
    const size = encoder.encode(text).length;
    if (this.#bytes + size <= this.#limit) {
      this.#parts.push(text);
      this.#bytes += size;
      return;
    }
    let kept = '';
    let bytes = this.#bytes;
    for (const char of text) {
      const width = encoder.encode(char).length;
      if (bytes + width > this.#limit) break;
      kept += char;
      bytes += width;
    }
    this.#parts.push(kept);
    this.#bytes = bytes;
    this.#truncated = true;
  }

  toString(): string {
    return this.#parts.join('');
  }
}

/** What a command sees: the sandbox, its output streams, and a checkpoint for time and cancellation. */
export class ShellIo {
  readonly sandbox: SandboxView;
  readonly stdout: OutputBuffer;
  readonly stderr: OutputBuffer;
  readonly #deadline: number;
  readonly #signal: AbortSignal | undefined;

  constructor(sandbox: SandboxView, options: { maxOutputBytes: number; deadline: number; signal?: AbortSignal | undefined }) {
    this.sandbox = sandbox;
    this.stdout = new OutputBuffer(options.maxOutputBytes);
    this.stderr = new OutputBuffer(options.maxOutputBytes);
    this.#deadline = options.deadline;
    this.#signal = options.signal;
  }

  /** Writes to standard output. */
  out(text: string): void {
    this.stdout.write(text);
  }

  /** Writes one `command: message` line to standard error. */
  error(command: string, message: string): void {
    this.stderr.write(`${command}: ${message}\n`);
  }

  /** Throws on cancellation or when the time limit has passed. */
  checkpoint(): void {
    throwIfAborted(this.#signal);
    if (Date.now() > this.#deadline) throw new ShellTimeout('command timed out');
  }

  /**
   * Runs `operation` for one operand; a `ToolError` (a sandbox refusal, a
   * missing file) is reported as `command: operand: message` and yields
   * `false`, so the command can go on with its other operands.
   */
  async attempt<T>(command: string, operand: string, operation: () => Promise<T>): Promise<T | false> {
    this.checkpoint();
    try {
      return await operation();
    } catch (error) {
      if (!ToolError.isInstance(error)) throw error;
      this.error(command, `${operand}: ${error.message}`);
      return false;
    }
  }
}

/** A virtual command: reads its arguments, writes through `io`, returns its exit status. */
export type ShellCommand = (io: ShellIo, args: readonly string[]) => Promise<number>;
