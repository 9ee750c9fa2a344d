import { ToolError } from '../../tool/tool-error.ts';
import { parseArgs, UsageError } from '../shell-args.ts';
import type { ShellCommand } from '../shell-io.ts';

/** `rm [-r] [-f] [-d] paths…`: removes files, and directories with `-r` (or empty ones with `-d`). */
export const rm: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'rRfdv', long: { recursive: 'r', force: 'f', dir: 'd', verbose: 'v' } });
  if (operands.length === 0 && !flags.has('f')) throw new UsageError('missing operand');
  const recursive = flags.has('r') || flags.has('R');
  let status = 0;
  for (const operand of operands) {
    const done = await io.attempt('rm', `cannot remove '${operand}'`, async () => {
      const entry = await io.sandbox.stat(operand);
      if (!entry) {
        if (flags.has('f')) return true;
        throw new ToolError('No such file or directory');
      }
      if (entry.kind === 'directory' && !recursive && !(flags.has('d') && entry.size === 0)) throw new ToolError('Is a directory');
      await io.sandbox.delete(operand, { recursive });
      return true;
    });
    if (done === false) status = 1;
    else if (flags.has('v')) io.out(`removed '${operand}'\n`);
  }
  return status;
};
