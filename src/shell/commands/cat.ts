import { readText } from '../shell-files.ts';
import type { ShellCommand } from '../shell-io.ts';
import { parseArgs } from '../shell-args.ts';

/** `cat [-n] files…`: prints files one after another (there is no standard input). */
export const cat: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'n' });
  if (operands.length === 0) {
    io.error('cat', 'no input files (the shell has no standard input)');
    return 1;
  }
  let status = 0;
  let lineNumber = 0;
  for (const operand of operands) {
    const text = await io.attempt('cat', operand, () => readText(io, operand));
    if (text === false) {
      status = 1;
      continue;
    }
    if (!flags.has('n')) {
      io.out(text);
      continue;
    }
    io.out(text.replace(/^(?=.)|(?<=\n)(?=.)/gm, () => `${String(++lineNumber).padStart(6)}\t`));
  }
  return status;
};
