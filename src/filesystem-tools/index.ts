/**
 * The filesystem tools (`read_file`, `list_files`, `glob`, `grep`, and the
 * writing ones when the sandbox is writable), bound to the run's sandbox.
 *
 * @module ghostlight/filesystem-tools
 */
export { filesystemTools } from './filesystem-tools.ts';
export type { FilesystemToolName, FilesystemToolsOptions } from './filesystem-tools.ts';
