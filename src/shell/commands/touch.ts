import { parseArgs, UsageError } from '../shell-args.ts';
import type { ShellCommand } from '../shell-io.ts';

/** `touch [-c] files…`: creates empty files that do not exist yet (existing ones are left as they are). */
export const touch: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'c', long: { 'no-create': 'c' } });
  if (operands.length === 0) throw new UsageError('missing file operand');
  let status = 0;
  for (const operand of operands) {
    const done = await io.attempt('touch', `cannot touch '${operand}'`, async () => {
      if (!flags.has('c') && !(await io.sandbox.stat(operand))) await io.sandbox.write(operand, '');
      return true;
    });
    if (done === false) status = 1;
  }
  return status;
};
