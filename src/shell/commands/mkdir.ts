import { parseArgs, UsageError } from '../shell-args.ts';
import type { ShellCommand } from '../shell-io.ts';

/** `mkdir [-p] directories…`: creates directories (`-p`: parents too, existing ones are fine). */
export const mkdir: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'pv', long: { parents: 'p', verbose: 'v' } });
  if (operands.length === 0) throw new UsageError('missing operand');
  let status = 0;
  for (const operand of operands) {
    const done = await io.attempt('mkdir', `cannot create directory '${operand}'`, () => io.sandbox.mkdir(operand, { parents: flags.has('p') }));
    if (done === false) status = 1;
    else if (flags.has('v')) io.out(`mkdir: created directory '${operand}'\n`);
  }
  return status;
};
