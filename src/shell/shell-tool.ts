import { ConfigurationError } from '../error/configuration-error.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { ToolError } from '../tool/tool-error.ts';
import { runShellCommand, SHELL_COMMANDS } from './virtual-shell.ts';

/** Options of {@link shellTool}. */
export interface ShellToolOptions {
  /** The time limit of one command (default 30,000 ms). */
  timeoutMs?: number;
  /** Mark the tool exclusive (its commands may write). */
  exclusive?: boolean;
}

/**
 * The `shell` tool: runs one argument vector in the virtual shell over the
 * run's sandbox and returns LittleGhost's JSON result
 * `{"stdout", "stderr", "exit_status", "success"}`. Shell syntax is not
 * interpreted; the commands are built in (`ls`, `cat`, `head`, `tail`, `wc`,
 * `grep`, `find`, `mkdir`, `rm`, `mv`, `cp`, `echo`, `sed`, `touch`, `sort`,
 * `uniq`) and honour the same grants as the filesystem tools. The tool is
 * offered when the run's sandbox allows `process_execute`; a run with no
 * sandbox at all is a `ConfigurationError` (add `workspace()` and `sandbox()`).
 *
 * @example
 * defineAgent({
 *   name: 'coder',
 *   model,
 *   tools: [filesystemTools(), shellTool()],
 *   capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })],
 * });
 */
export function shellTool(options: ShellToolOptions = {}): Tool {
  return defineTool({
    name: 'shell',
    description: `Run one command with arguments in the configured workspace. Shell syntax is not interpreted. Available commands: ${SHELL_COMMANDS.join(', ')}.`,
    input: {
      type: 'object',
      properties: { command: { type: 'array', items: { type: 'string' } } },
      required: ['command'],
      additionalProperties: false,
    },
    exclusive: options.exclusive === true,
    availableIf: (binding) => {
      if (!binding.sandbox) {
        throw new ConfigurationError("The shell tool needs a sandbox: add workspace() and sandbox() to the agent's capabilities (ghostlight/workspace, ghostlight/sandbox)");
      }
      return binding.sandbox.supports('process_execute');
    },
    execute: async (input, binding) => {
      const sandbox = binding.sandbox;
      if (!sandbox) throw new ToolError('No sandbox is bound to this run');
      const result = await runShellCommand(sandbox, (input as { command: string[] }).command, {
        signal: binding.signal,
        timeoutMs: options.timeoutMs,
      });
      return JSON.stringify({ stdout: result.stdout, stderr: result.stderr, exit_status: result.exitStatus, success: result.success });
    },
  });
}
