/**
 * The virtual shell: a small POSIX-like command language (ls, cat, grep, sed,
 * find, …) over a run's sandbox, with no host process behind it, and the
 * `shell` tool.
 *
 * @module ghostlight/shell
 */
export { shellTool } from './shell-tool.ts';
export type { ShellToolOptions } from './shell-tool.ts';
export { runShellCommand, SHELL_COMMANDS, SHELL_TIMEOUT_MS } from './virtual-shell.ts';
export type { ShellResult, ShellRunOptions } from './virtual-shell.ts';
