import { count, parseArgs, UsageError } from '../shell-args.ts';
import { readText, splitLines } from '../shell-files.ts';
import type { ShellCommand, ShellIo } from '../shell-io.ts';

/** `head [-n N | -N] [-c N] files…`: the first lines (default 10) or bytes of each file. */
export const head: ShellCommand = (io, args) => ends(io, 'head', args);

/** `tail [-n N | -n +N | -N] [-c N] files…`: the last lines (default 10) or bytes of each file. */
export const tail: ShellCommand = (io, args) => ends(io, 'tail', args);

async function ends(io: ShellIo, command: 'head' | 'tail', args: readonly string[]): Promise<number> {
  const normalized = args.map((arg) => (/^-\d+$/.test(arg) ? `-n${arg.slice(1)}` : arg));
  const { values, operands, flags } = parseArgs(normalized, { flags: 'qv', values: 'nc', long: { lines: 'n', bytes: 'c', quiet: 'q' } });
  const lines = values.get('n') ?? '10';
  const fromStart = command === 'tail' && lines.startsWith('+');
  const amount = count(fromStart ? lines.slice(1) : lines, 'lines');
  const bytes = values.has('c') ? count(values.get('c')!, 'bytes') : undefined;
  if (operands.length === 0) throw new UsageError('no input files (the shell has no standard input)');
  let status = 0;
  for (const [index, operand] of operands.entries()) {
    const text = await io.attempt(command, operand, () => readText(io, operand));
    if (text === false) {
      status = 1;
      continue;
    }
    if ((operands.length > 1 && !flags.has('q')) || flags.has('v')) io.out(`${index > 0 ? '\n' : ''}==> ${operand} <==\n`);
    if (bytes !== undefined) {
      const data = new TextEncoder().encode(text);
      const slice = command === 'head' ? data.subarray(0, bytes) : data.subarray(Math.max(0, data.length - bytes));
      io.out(new TextDecoder().decode(slice));
      continue;
    }
    const all = splitLines(text);
    const start = command === 'head' ? 0 : fromStart ? Math.min(all.length, Math.max(0, amount - 1)) : Math.max(0, all.length - amount);
    const end = command === 'head' ? Math.min(all.length, amount) : all.length;
    const unterminated = !text.endsWith('\n');
    for (let line = start; line < end; line++) io.out(line === all.length - 1 && unterminated ? all[line]! : `${all[line]}\n`);
  }
  return status;
}
