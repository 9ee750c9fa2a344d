import { parseArgs, UsageError } from '../shell-args.ts';
import { readText, splitLines } from '../shell-files.ts';
import type { ShellCommand } from '../shell-io.ts';

/** `sort [-r] [-n] [-u] files…`: sorts the lines of the files together. */
export const sort: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'rnuf', long: { reverse: 'r', 'numeric-sort': 'n', unique: 'u', 'ignore-case': 'f' } });
  if (operands.length === 0) throw new UsageError('no input files (the shell has no standard input)');
  const lines: string[] = [];
  let status = 0;
  for (const operand of operands) {
    const text = await io.attempt('sort', operand, () => readText(io, operand));
    if (text === false) status = 2;
    else lines.push(...splitLines(text));
  }
  const key = (line: string) => (flags.has('f') ? line.toLowerCase() : line);
  lines.sort((left, right) => {
    if (flags.has('n')) {
      const difference = (Number.parseFloat(left) || 0) - (Number.parseFloat(right) || 0);
      if (difference !== 0) return difference;
    }
    return key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0;
  });
  if (flags.has('r')) lines.reverse();
  const shown = flags.has('u') ? lines.filter((line, index) => index === 0 || key(line) !== key(lines[index - 1]!)) : lines;
  io.out(shown.map((line) => `${line}\n`).join(''));
  return status;
};

/** `uniq [-c] [-d] [-u] file`: collapses adjacent repeated lines. */
export const uniq: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'cdu', long: { count: 'c', repeated: 'd', unique: 'u' } });
  if (operands.length !== 1) throw new UsageError(operands.length === 0 ? 'no input file (the shell has no standard input)' : 'extra operand');
  const text = await io.attempt('uniq', operands[0]!, () => readText(io, operands[0]!));
  if (text === false) return 1;
  const lines = splitLines(text);
  for (let index = 0; index < lines.length; ) {
    let end = index + 1;
    while (end < lines.length && lines[end] === lines[index]) end++;
    const repeats = end - index;
    if ((!flags.has('d') || repeats > 1) && (!flags.has('u') || repeats === 1)) {
      io.out(`${flags.has('c') ? `${String(repeats).padStart(7)} ` : ''}${lines[index]}\n`);
    }
    index = end;
  }
  return 0;
};
