import { ToolError } from '../tool/tool-error.ts';
import type { SandboxView } from '../sandbox/sandbox-view.ts';
import { cat } from './commands/cat.ts';
import { echo } from './commands/echo.ts';
import { find } from './commands/find.ts';
import { grep } from './commands/grep.ts';
import { head, tail } from './commands/head-tail.ts';
import { ls } from './commands/ls.ts';
import { mkdir } from './commands/mkdir.ts';
import { cp, mv } from './commands/mv-cp.ts';
import { rm } from './commands/rm.ts';
import { sed } from './commands/sed.ts';
import { sort, uniq } from './commands/sort-uniq.ts';
import { touch } from './commands/touch.ts';
import { wc } from './commands/wc.ts';
import { UsageError } from './shell-args.ts';
import { ShellIo, ShellTimeout } from './shell-io.ts';
import type { ShellCommand } from './shell-io.ts';

/** What one command produced. */
export interface ShellResult {
  /** Standard output (at most the output limit). */
  readonly stdout: string;
  /** Standard error (at most the output limit). */
  readonly stderr: string;
  /** The exit status: 0 success, 1 failure, 2 usage error, 124 timeout, 127 unknown command. */
  readonly exitStatus: number;
  /** Whether the exit status is 0. */
  readonly success: boolean;
}

/** Options of {@link runShellCommand}. */
export interface ShellRunOptions {
  /** Cancels the command. */
  readonly signal?: AbortSignal | undefined;
  /** The time limit (default 30,000 ms, LittleGhost's shell timeout). */
  readonly timeoutMs?: number | undefined;
  /** Bytes kept per stream (default: the sandbox's `outputBytes`). */
  readonly maxOutputBytes?: number | undefined;
}

const COMMANDS: Readonly<Record<string, ShellCommand>> = Object.freeze({
  cat, cp, echo, find, grep, head, ls, mkdir, mv, rm, sed, sort, tail, touch, uniq, wc,
});

/** The commands the virtual shell knows. */
export const SHELL_COMMANDS: readonly string[] = Object.freeze(Object.keys(COMMANDS).sort());

/** LittleGhost's shell timeout, in milliseconds. */
export const SHELL_TIMEOUT_MS = 30_000;

/**
 * Runs one argument vector in the virtual shell: `argv[0]` names a built-in
 * command, the rest are its arguments, taken literally (no globbing, no
 * pipes, no redirection, no variables: shell syntax is not interpreted).
 * Every file access goes through `sandbox`, so its grants, capabilities and
 * limits apply. An unknown command exits with 127.
 *
 * @example
 * await runShellCommand(sandbox, ['grep', '-rn', 'TODO', '.']);
 * // { stdout: './notes/today.md:3:TODO call back\n', stderr: '', exitStatus: 0, success: true }
 */
export async function runShellCommand(sandbox: SandboxView, argv: readonly string[], options: ShellRunOptions = {}): Promise<ShellResult> {
  if (!sandbox.supports('process_execute')) throw new ToolError('Sandbox scope does not allow process execute');
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((arg) => typeof arg !== 'string')) {
    throw new ToolError('command must be a non-empty list of strings');
  }
  const timeoutMs = options.timeoutMs ?? SHELL_TIMEOUT_MS;
  const io = new ShellIo(sandbox, {
    maxOutputBytes: options.maxOutputBytes ?? sandbox.limits.outputBytes,
    deadline: Date.now() + timeoutMs,
    signal: options.signal,
  });
  const [name, ...args] = argv as [string, ...string[]];
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  let exitStatus: number;
  if (!command) {
    io.error('shell', `${name}: command not found`);
    exitStatus = 127;
  } else {
    try {
      exitStatus = await command(io, args);
    } catch (error) {
      if (error instanceof UsageError) {
        io.error(name, error.message);
        exitStatus = 2;
      } else if (error instanceof ShellTimeout) {
        io.error('shell', `${name}: timed out after ${timeoutMs} ms`);
        exitStatus = 124;
      } else if (ToolError.isInstance(error)) {
        io.error(name, error.message);
        exitStatus = 1;
      } else throw error;
    }
  }
  const truncated = io.stdout.truncated || io.stderr.truncated ? '\nshell: output truncated at the output limit\n' : '';
  return { stdout: io.stdout.toString(), stderr: io.stderr.toString() + truncated, exitStatus, success: exitStatus === 0 };
}
