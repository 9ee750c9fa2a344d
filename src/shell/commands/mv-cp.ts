import { ToolError } from '../../tool/tool-error.ts';
import { baseName, parseReference } from '../../workspace/workspace-path.ts';
import { parseArgs, UsageError } from '../shell-args.ts';
import { childPath } from '../shell-files.ts';
import type { ShellCommand, ShellIo } from '../shell-io.ts';

/** `mv [-n] [-v] sources… destination`: moves or renames; into the destination when it is a directory. */
export const mv: ShellCommand = (io, args) => transfer(io, 'mv', args);

/** `cp [-r] [-n] [-v] sources… destination`: copies files (directories with `-r`). */
export const cp: ShellCommand = (io, args) => transfer(io, 'cp', args);

async function transfer(io: ShellIo, command: 'mv' | 'cp', args: readonly string[]): Promise<number> {
  const { flags, operands } = parseArgs(args, { flags: command === 'cp' ? 'rRnfv' : 'nfv', long: { recursive: 'r', 'no-clobber': 'n', force: 'f', verbose: 'v' } });
  if (operands.length < 2) throw new UsageError(operands.length === 0 ? 'missing file operand' : `missing destination file operand after '${operands[0]}'`);
  const destination = operands.at(-1)!;
  const sources = operands.slice(0, -1);
  const target = await io.attempt(command, `'${destination}'`, () => io.sandbox.stat(destination));
  if (target === false) return 1;
  const intoDirectory = target?.kind === 'directory';
  if (sources.length > 1 && !intoDirectory) {
    io.error(command, `target '${destination}' is not a directory`);
    return 1;
  }
  let status = 0;
  for (const source of sources) {
    const to = intoDirectory ? childPath(destination, baseName(parseReference(source).path) || source) : destination;
    const done = await io.attempt(command, `cannot ${command === 'mv' ? 'move' : 'copy'} '${source}' to '${to}'`, async () => {
      const existing = await io.sandbox.stat(to);
      if (existing && flags.has('n')) return 'skipped';
      if (existing?.kind === 'directory') throw new ToolError('Destination already exists');
      const overwrite = existing !== undefined;
      if (command === 'mv') await io.sandbox.move(source, to, { overwrite });
      else await io.sandbox.copy(source, to, { recursive: flags.has('r') || flags.has('R'), overwrite });
      return 'done';
    });
    if (done === false) status = 1;
    else if (done === 'done' && flags.has('v')) io.out(`'${source}' -> '${to}'\n`);
  }
  return status;
}
