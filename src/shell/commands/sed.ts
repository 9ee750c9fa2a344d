import type { LinearRegex } from '../../sandbox/regex/linear-regex.ts';
import { compileRegex } from '../../sandbox/text-matcher.ts';
import { count, UsageError } from '../shell-args.ts';
import { readText, splitLines } from '../shell-files.ts';
import type { ShellCommand, ShellIo } from '../shell-io.ts';

type Address = { readonly type: 'line'; readonly line: number } | { readonly type: 'last' } | { readonly type: 'match'; readonly regex: LinearRegex };

interface SedCommand {
  readonly from?: Address | undefined;
  readonly to?: Address | undefined;
  readonly negate: boolean;
  readonly name: 'p' | 'd' | 'q' | 's';
  readonly substitute?: { readonly regex: LinearRegex; readonly replacement: string; readonly global: boolean; readonly occurrence: number; readonly print: boolean };
  active: boolean;
}

/**
 * `sed [-n] [-i] [-E] [-e SCRIPT]… [SCRIPT] files…`: the stream editor for
 * the commands models use: `s/RE/REPLACEMENT/[gIpN]`, `p`, `d` and `q`,
 * with line, `$` and `/RE/` addresses, ranges and `!`. Regular expressions
 * are extended (ERE, matched in linear time; basic syntax is translated
 * unless `-E`); `&` and `\1`…`\9` work in replacements. `-i` edits files in
 * place (the sandbox must allow writing).
 */
export const sed: ShellCommand = async (io, args) => {
  const options = parseSedArgs(args);
  const commands: SedCommand[] = [];
  for (const script of options.scripts) commands.push(...parseScript(script, options.extended));
  if (options.files.length === 0) throw new UsageError('no input files (the shell has no standard input)');
  let status = 0;
  if (options.inPlace) {
    for (const file of options.files) {
      const text = await io.attempt('sed', `can't read ${file}`, () => readText(io, file));
      if (text === false) {
        status = 1;
        continue;
      }
      commands.forEach((command) => (command.active = false));
      const output = run(io, commands, [{ text }], options.quiet);
      if ((await io.attempt('sed', `couldn't edit ${file}`, () => io.sandbox.write(file, output))) === false) status = 1;
    }
    return status;
  }
  const inputs: Array<{ text: string }> = [];
  for (const file of options.files) {
    const text = await io.attempt('sed', `can't read ${file}`, () => readText(io, file));
    if (text === false) status = 2;
    else inputs.push({ text });
  }
  io.out(run(io, commands, inputs, options.quiet));
  return status;
};

function parseSedArgs(args: readonly string[]) {
  const scripts: string[] = [];
  const files: string[] = [];
  let quiet = false;
  let inPlace = false;
  let extended = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-e' || arg === '--expression') {
      const script = args[++index];
      if (script === undefined) throw new UsageError("option requires an argument -- 'e'");
      scripts.push(script);
    } else if (arg.startsWith('--expression=')) scripts.push(arg.slice('--expression='.length));
    else if (arg === '--quiet' || arg === '--silent') quiet = true;
    else if (arg === '--in-place') inPlace = true;
    else if (arg === '--regexp-extended') extended = true;
    else if (/^-[niEr]+$/.test(arg)) {
      quiet ||= arg.includes('n');
      inPlace ||= arg.includes('i');
      extended ||= arg.includes('E') || arg.includes('r');
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`invalid option -- '${arg.slice(1)}'`);
    else files.push(arg);
  }
  if (scripts.length === 0) {
    const script = files.shift();
    if (script === undefined) throw new UsageError('no script given');
    scripts.push(script);
  }
  return { scripts, files, quiet, inPlace, extended };
}

function run(io: ShellIo, commands: SedCommand[], inputs: ReadonlyArray<{ text: string }>, quiet: boolean): string {
  const lines: Array<{ text: string; newline: boolean }> = [];
  for (const input of inputs) {
    const split = splitLines(input.text);
    split.forEach((text, index) => lines.push({ text, newline: index < split.length - 1 || input.text.endsWith('\n') }));
  }
  let output = '';
  for (let index = 0; index < lines.length; index++) {
    if (index % 1024 === 0) io.checkpoint();
    let space = lines[index]!.text;
    const newline = lines[index]!.newline ? '\n' : '';
    const last = index === lines.length - 1;
    let deleted = false;
    let quit = false;
    for (const command of commands) {
      if (!selects(command, index + 1, last, space)) continue;
      if (command.name === 'p') output += `${space}\n`;
      else if (command.name === 'd') {
        deleted = true;
        break;
      } else if (command.name === 'q') {
        quit = true;
        break;
      } else {
        const replaced = substitute(space, command.substitute!);
        if (replaced !== undefined) {
          space = replaced;
          if (command.substitute!.print) output += `${space}\n`;
        }
      }
    }
    if (!deleted && !quiet) output += `${space}${newline}`;
    if (quit) break;
  }
  return output;
}

function selects(command: SedCommand, line: number, last: boolean, space: string): boolean {
  const hit = (address: Address) =>
    address.type === 'line' ? address.line === line : address.type === 'last' ? last : address.regex.test(space);
  let selected: boolean;
  if (!command.from) selected = true;
  else if (!command.to) selected = hit(command.from);
  else if (command.active) {
    const to = command.to;
    const ended = to.type === 'line' ? line >= to.line : hit(to);
    if (ended) command.active = false;
    selected = true;
  } else if (hit(command.from)) {
    const to = command.to;
    command.active = !(to.type === 'line' ? to.line <= line : to.type === 'last' ? last : false);
    selected = true;
  } else selected = false;
  return selected !== command.negate;
}

function substitute(space: string, spec: NonNullable<SedCommand['substitute']>): string | undefined {
  let result = '';
  let position = 0;
  let seen = 0;
  let changed = false;
  // Replacements reach \9 at most: the VM tracks no more groups than that.
  for (const match of spec.regex.matchAll(space, { groups: 9 })) {
    seen++;
    if (seen < spec.occurrence) continue;
    result += space.slice(position, match.index) + expand(spec.replacement, match.groups);
    position = match.end;
    changed = true;
    if (!spec.global) break;
  }
  return changed ? result + space.slice(position) : undefined;
}

function expand(replacement: string, groups: ReadonlyArray<string | undefined>): string {
  let out = '';
  for (let index = 0; index < replacement.length; index++) {
    const char = replacement[index]!;
    if (char === '&') out += groups[0] ?? '';
    else if (char === '\\' && index + 1 < replacement.length) {
      const next = replacement[++index]!;
      if (/[1-9]/.test(next)) out += groups[Number(next)] ?? '';
      else out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else out += char;
  }
  return out;
}

/** The highest group `\N` in a replacement refers to (0 for none). */
function highestReference(replacement: string): number {
  let highest = 0;
  for (let index = 0; index < replacement.length; index++) {
    if (replacement[index] !== '\\' || index + 1 >= replacement.length) continue;
    const next = replacement[++index]!;
    if (/[1-9]/.test(next)) highest = Math.max(highest, Number(next));
  }
  return highest;
}

function parseScript(script: string, extended: boolean): SedCommand[] {
  const commands: SedCommand[] = [];
  let index = 0;
  const skipBlanks = () => {
    while (index < script.length && /[\s;]/.test(script[index]!)) index++;
  };
  const readDelimited = (delimiter: string): string => {
    let text = '';
    while (index < script.length && script[index] !== delimiter) {
      if (script[index] === '\\' && index + 1 < script.length) {
        text += script[index + 1] === delimiter ? delimiter : script.slice(index, index + 2);
        index += 2;
      } else text += script[index++];
    }
    if (script[index] !== delimiter) throw new UsageError(`unterminated address or command in '${script}'`);
    index++;
    return text;
  };
  const readAddress = (): Address | undefined => {
    const digits = /^\d+/.exec(script.slice(index));
    if (digits) {
      index += digits[0].length;
      return { type: 'line', line: count(digits[0], 'lines') };
    }
    if (script[index] === '$') {
      index++;
      return { type: 'last' };
    }
    if (script[index] === '/') {
      index++;
      return { type: 'match', regex: compileRegex(translate(readDelimited('/'), extended)) };
    }
    return undefined;
  };
  skipBlanks();
  while (index < script.length) {
    const from = readAddress();
    let to: Address | undefined;
    if (from && script[index] === ',') {
      index++;
      to = readAddress();
      if (!to) throw new UsageError(`unexpected ',' in '${script}'`);
    }
    while (script[index] === ' ') index++;
    const negate = script[index] === '!';
    if (negate) index++;
    const name = script[index++];
    if (name === 'p' || name === 'd' || name === 'q') commands.push({ from, to, negate, name, active: false });
    else if (name === 's') {
      const delimiter = script[index++];
      if (!delimiter || /[\s\\\n]/.test(delimiter)) throw new UsageError(`unterminated 's' command in '${script}'`);
      const pattern = readDelimited(delimiter);
      const replacement = readDelimited(delimiter);
      const flags = /^[gIip0-9]*/.exec(script.slice(index))![0];
      index += flags.length;
      const regex = compileRegex(translate(pattern, extended), { ignoreCase: /[Ii]/.test(flags) });
      const reference = highestReference(replacement);
      if (reference > regex.groupCount) throw new UsageError(`invalid reference \\${reference} on \`s' command's RHS`);
      const occurrence = /\d+/.exec(flags)?.[0];
      commands.push({
        from,
        to,
        negate,
        name: 's',
        substitute: { regex, replacement, global: flags.includes('g'), occurrence: occurrence ? Number(occurrence) : 1, print: flags.includes('p') },
        active: false,
      });
    } else throw new UsageError(`unknown command: '${name ?? ''}' in '${script}'`);
    skipBlanks();
  }
  return commands;
}

/** Translates POSIX basic syntax (`\(`, `\{`, `\+`, literal `(`…) to extended syntax. */
function translate(pattern: string, extended: boolean): string {
  if (extended) return pattern;
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\' && index + 1 < pattern.length) {
      const next = pattern[++index]!;
      out += '(){}+?|'.includes(next) ? next : `\\${next}`;
    } else out += '(){}+?|'.includes(char) ? `\\${char}` : char;
  }
  return out;
}
