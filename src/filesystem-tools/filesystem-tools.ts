import { ConfigurationError } from '../error/configuration-error.ts';
import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import type { ToolProvider } from '../tool/tool-declaration.ts';
import { ToolError } from '../tool/tool-error.ts';
import type { SandboxView } from '../sandbox/sandbox-view.ts';

/** The names of the filesystem tools. */
export type FilesystemToolName =
  | 'read_file'
  | 'list_files'
  | 'glob'
  | 'grep'
  | 'write_file'
  | 'replace_in_file'
  | 'delete_file'
  | 'move_file';

/** Options of {@link filesystemTools}. */
export interface FilesystemToolsOptions {
  /** Mark every tool exclusive, so no batch observes a concurrent write (LittleGhost's `Filesystem::Exclusive`). */
  exclusive?: boolean;
  /** Offer only these tools (default: all eight). `['read_file', 'list_files', 'write_file', 'replace_in_file']` is LittleGhost's set. */
  only?: readonly FilesystemToolName[];
}

const READ_TOOLS: readonly FilesystemToolName[] = ['read_file', 'list_files', 'glob', 'grep'];
const WRITE_TOOLS: readonly FilesystemToolName[] = ['write_file', 'replace_in_file', 'delete_file', 'move_file'];
const NO_MATCHES = 'No matches found';

const strictObject = (properties: Record<string, unknown>, required: readonly string[]) => ({
  type: 'object',
  properties,
  required: [...required],
  additionalProperties: false,
});
const text = { type: 'string' };
const flag = { type: 'boolean' };

/**
 * The filesystem tools, bound to the run's sandbox: `read_file`,
 * `list_files`, `glob` and `grep` always; `write_file`, `replace_in_file`,
 * `delete_file` and `move_file` only when the sandbox is writable. Every
 * operation goes through the sandbox, so grants, scopes and limits apply and
 * failures carry LittleGhost's messages. The run needs a sandbox: the
 * agent's `workspace()` and `sandbox()` capabilities, or a `sandbox` passed
 * when asking.
 *
 * @example
 * const agent = defineAgent({
 *   name: 'notes',
 *   model,
 *   tools: [filesystemTools()],
 *   capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })],
 * });
 */
export function filesystemTools(options: FilesystemToolsOptions = {}): ToolProvider {
  const only = options.only === undefined ? undefined : new Set(options.only);
  const definitions = createDefinitions(options.exclusive === true);
  return (binding: ToolBinding) => {
    const sandbox = sandboxOf(binding, true);
    const names = [...READ_TOOLS, ...(sandbox.writable ? WRITE_TOOLS : [])];
    return names.filter((name) => !only || only.has(name)).map((name) => definitions[name]);
  };
}

function sandboxOf(binding: ToolBinding, configuring = false): SandboxView {
  const sandbox = binding.sandbox;
  if (sandbox) return sandbox;
  if (configuring) throw new ConfigurationError('The filesystem tools need a sandbox: add workspace() and sandbox() to the agent\'s capabilities (ghostlight/workspace, ghostlight/sandbox)');
  throw new ToolError('No sandbox is bound to this run');
}

function createDefinitions(exclusive: boolean): Record<FilesystemToolName, Tool> {
  return {
    read_file: defineTool({
      name: 'read_file',
      description: 'Read a UTF-8 text file within the configured workspace.',
      input: strictObject({ path: text }, ['path']),
      exclusive,
      execute: (input, binding) => sandboxOf(binding).read((input as { path: string }).path),
    }),
    list_files: defineTool({
      name: 'list_files',
      description: 'List files and directories within the configured workspace.',
      input: strictObject({ path: text }, []),
      exclusive,
      execute: (input, binding) => sandboxOf(binding).list((input as { path?: string }).path ?? '.'),
    }),
    glob: defineTool({
      name: 'glob',
      description:
        'Find files and directories within the configured workspace whose path (relative to `path`, default the root) matches a glob: `*` and `?` within a name, `**` across directories, `[abc]`, `{a,b}`. Directories end in `/`.',
      input: strictObject({ pattern: text, path: text }, ['pattern']),
      exclusive,
      execute: async (input, binding) => {
        const { pattern, path } = input as { pattern: string; path?: string };
        const found = await sandboxOf(binding).glob(pattern, { path, signal: binding.signal });
        return found.length === 0 ? NO_MATCHES : found.join('\n');
      },
    }),
    grep: defineTool({
      name: 'grep',
      description:
        'Search the UTF-8 text files within the configured workspace (or beneath `path`) for lines matching a regular expression (JavaScript syntax without backreferences or lookaround), or literal text with `fixed_strings`. `glob` limits the files searched. Returns `path:line:text` lines.',
      input: strictObject({ pattern: text, path: text, glob: text, ignore_case: flag, fixed_strings: flag }, ['pattern']),
      exclusive,
      execute: async (input, binding) => {
        const options = input as { pattern: string; path?: string; glob?: string; ignore_case?: boolean; fixed_strings?: boolean };
        const result = await sandboxOf(binding).grep(options.pattern, {
          path: options.path,
          glob: options.glob,
          ignoreCase: options.ignore_case,
          fixedStrings: options.fixed_strings,
          signal: binding.signal,
        });
        if (result.matches.length === 0) return NO_MATCHES;
        const lines = result.matches.map((match) => `${match.reference}:${match.line}:${match.text}`);
        if (result.truncated) lines.push('[Search stopped at the output limit]');
        return lines.join('\n');
      },
    }),
    write_file: defineTool({
      name: 'write_file',
      description: 'Write a UTF-8 text file within the configured writable workspace.',
      input: strictObject({ path: text, content: text }, ['path', 'content']),
      exclusive,
      execute: (input, binding) => {
        const { path, content } = input as { path: string; content: string };
        return sandboxOf(binding).write(path, content);
      },
    }),
    replace_in_file: defineTool({
      name: 'replace_in_file',
      description: 'Replace one unique occurrence of text in a UTF-8 file within a configured writable workspace.',
      input: strictObject({ path: text, old_text: text, new_text: text }, ['path', 'old_text', 'new_text']),
      exclusive,
      execute: (input, binding) => {
        const { path, old_text: oldText, new_text: newText } = input as { path: string; old_text: string; new_text: string };
        return sandboxOf(binding).replace(path, oldText, newText);
      },
    }),
    delete_file: defineTool({
      name: 'delete_file',
      description: 'Delete a file, or a directory with `recursive`, within the configured writable workspace.',
      input: strictObject({ path: text, recursive: flag }, ['path']),
      exclusive,
      execute: (input, binding) => {
        const { path, recursive } = input as { path: string; recursive?: boolean };
        return sandboxOf(binding).delete(path, { recursive });
      },
    }),
    move_file: defineTool({
      name: 'move_file',
      description: 'Move or rename a file or directory within the configured writable workspace. The destination must not exist.',
      input: strictObject({ source: text, destination: text }, ['source', 'destination']),
      exclusive,
      execute: (input, binding) => {
        const { source, destination } = input as { source: string; destination: string };
        return sandboxOf(binding).move(source, destination);
      },
    }),
  };
}
