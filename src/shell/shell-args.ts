/** Parsed command-line arguments. */
export interface ParsedArgs {
  /** Single-letter flags that were given. */
  readonly flags: ReadonlySet<string>;
  /** Options that take a value (last one wins). */
  readonly values: ReadonlyMap<string, string>;
  /** Everything else, in order. */
  readonly operands: readonly string[];
}

/** A usage error: the command prints it and exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Parses GNU-style short options: grouped flags (`-rn`), options with a value
 * (`-n 5`, `-n5`), `--` to end options, and long options mapped to short
 * letters. A lone `-` is an operand. Unknown options are a `UsageError`.
 */
export function parseArgs(
  args: readonly string[],
  spec: { flags?: string; values?: string; long?: Readonly<Record<string, string>> },
): ParsedArgs {
  const flagLetters = spec.flags ?? '';
  const valueLetters = spec.values ?? '';
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const letter = spec.long?.[name];
      if (!letter) throw new UsageError(`unrecognized option '${arg}'`);
      if (valueLetters.includes(letter)) {
        const value = inline ?? args[++index];
        if (value === undefined) throw new UsageError(`option '--${name}' requires an argument`);
        values.set(letter, value);
      } else flags.add(letter);
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      continue;
    }
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position]!;
      if (valueLetters.includes(letter)) {
        const value = position + 1 < arg.length ? arg.slice(position + 1) : args[++index];
        if (value === undefined) throw new UsageError(`option requires an argument -- '${letter}'`);
        values.set(letter, value);
        break;
      }
      if (!flagLetters.includes(letter)) throw new UsageError(`invalid option -- '${letter}'`);
      flags.add(letter);
    }
  }
  return { flags, values, operands };
}

/** Parses a non-negative integer option value; anything else is a `UsageError`. */
export function count(value: string, what: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`invalid number of ${what}: '${value}'`);
  return Number(value);
}
