import { parseArgs, UsageError } from '../shell-args.ts';
import { readText } from '../shell-files.ts';
import type { ShellCommand } from '../shell-io.ts';

const encoder = new TextEncoder();

/** `wc [-l] [-w] [-c] [-m] files…`: newline, word and byte (or character) counts, with a total for several files. */
export const wc: ShellCommand = async (io, args) => {
  const { flags, operands } = parseArgs(args, { flags: 'lwcm', long: { lines: 'l', words: 'w', bytes: 'c', chars: 'm' } });
  if (operands.length === 0) throw new UsageError('no input files (the shell has no standard input)');
  const selected = ['l', 'w', 'c', 'm'].filter((flag) => flags.has(flag));
  const columns = selected.length > 0 ? selected : ['l', 'w', 'c'];
  const rows: Array<[number[], string]> = [];
  const total = columns.map(() => 0);
  let status = 0;
  for (const operand of operands) {
    const text = await io.attempt('wc', operand, () => readText(io, operand));
    if (text === false) {
      status = 1;
      continue;
    }
    const counts = columns.map((column) => {
      if (column === 'l') return (text.match(/\n/g) ?? []).length;
      if (column === 'w') return text.split(/\s+/).filter((word) => word.length > 0).length;
      if (column === 'm') return [...text].length;
      return encoder.encode(text).length;
    });
    counts.forEach((value, index) => (total[index]! += value));
    rows.push([counts, operand]);
  }
  if (rows.length > 1) rows.push([total, 'total']);
  const width = Math.max(1, ...rows.flatMap(([counts]) => counts.map((value) => String(value).length)));
  for (const [counts, name] of rows) {
    io.out(`${counts.map((value) => String(value).padStart(columns.length === 1 && rows.length === 1 ? 0 : width)).join(' ')} ${name}\n`);
  }
  return status;
};
