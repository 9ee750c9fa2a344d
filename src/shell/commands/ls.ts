import { ToolError } from '../../tool/tool-error.ts';
import { parseArgs } from '../shell-args.ts';
import type { ShellCommand, ShellIo } from '../shell-io.ts';
import type { WorkspaceEntry } from '../../workspace/workspace-options.ts';

/** `ls [-a] [-A] [-l] [-1] [-F] [-p] [paths…]`: lists directories (names starting with `.` only with `-a`). */
export const ls: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'aAl1Fp', long: { all: 'a', 'almost-all': 'A' } });
  const targets = operands.length > 0 ? operands : ['.'];
  let status = 0;
  const files: Array<[string, WorkspaceEntry]> = [];
  const directories: string[] = [];
  for (const target of targets) {
    const entry = await io.attempt('ls', `cannot access '${target}'`, async () => {
      const found = await io.sandbox.stat(target);
      if (!found) throw new ToolError('No such file or directory');
      return found;
    });
    if (entry === false) {
      status = 2;
      continue;
    }
    if (entry.kind === 'directory') directories.push(target);
    else files.push([target, entry]);
  }
  const print = (entries: Array<[string, WorkspaceEntry]>) => {
    for (const [name, entry] of entries) io.out(`${line(name, entry, flags)}\n`);
  };
  print(files);
  for (const [index, directory] of directories.entries()) {
    if (targets.length > 1) io.out(`${index > 0 || files.length > 0 ? '\n' : ''}${directory}:\n`);
    const entries = await io.attempt('ls', `cannot open directory '${directory}'`, () => io.sandbox.entries(directory));
    if (entries === false) {
      status = 2;
      continue;
    }
    const shown = entries.filter((entry) => flags.has('a') || flags.has('A') || !entry.name.startsWith('.'));
    print(shown.map((entry) => [entry.name, entry]));
  }
  return status;
};

function line(name: string, entry: WorkspaceEntry, flags: ReadonlySet<string>): string {
  const suffix = entry.kind === 'directory' && (flags.has('F') || flags.has('p')) ? '/' : '';
  if (!flags.has('l')) return `${name}${suffix}`;
  const mode = entry.kind === 'directory' ? 'drwxr-xr-x' : '-rw-r--r--';
  const modified = new Date(entry.modifiedAt).toISOString().slice(0, 16).replace('T', ' ');
  return `${mode} ${String(entry.size).padStart(8)} ${modified} ${name}${suffix}`;
}
