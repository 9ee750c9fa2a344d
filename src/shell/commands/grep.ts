import { ToolError } from '../../tool/tool-error.ts';
import { compileTextMatcher } from '../../sandbox/text-matcher.ts';
import { parseArgs, UsageError } from '../shell-args.ts';
import { readText, splitLines, walkTree } from '../shell-files.ts';
import type { ShellCommand, ShellIo } from '../shell-io.ts';

/**
 * `grep [-i] [-v] [-n] [-c] [-l] [-r] [-F] [-E] [-w] [-x] [-h] [-H] [-e PATTERN] PATTERN [paths…]`:
 * prints matching lines. Patterns are extended regular expressions (ERE, with
 * JavaScript's escapes), matched in linear time.
 * Exit status 0 when something matched, 1 when nothing did, 2 on errors.
 */
export const grep: ShellCommand = async (io, args) => {
  const { flags, values, operands } = parseArgs(args, {
    flags: 'ivnclrRFEwxhHs',
    values: 'e',
    long: { 'ignore-case': 'i', 'invert-match': 'v', 'line-number': 'n', count: 'c', 'files-with-matches': 'l', recursive: 'r', 'fixed-strings': 'F', 'word-regexp': 'w', 'line-regexp': 'x' },
  });
  const rest = [...operands];
  const pattern = values.get('e') ?? rest.shift();
  if (pattern === undefined) throw new UsageError('no pattern given');
  const recursive = flags.has('r') || flags.has('R');
  const paths = rest.length > 0 ? rest : recursive ? ['.'] : [];
  if (paths.length === 0) throw new UsageError('no input files (the shell has no standard input)');
  const matcher = compileTextMatcher(wrap(pattern, flags), { ignoreCase: flags.has('i'), fixedStrings: flags.has('F') && !flags.has('w') && !flags.has('x') });
  const showNames = flags.has('H') || (!flags.has('h') && (recursive || paths.length > 1));
  let matched = false;
  let failed = false;
  const search = async (path: string) => {
    const text = await io.attempt('grep', path, () => readText(io, path));
    if (text === false) {
      failed = true;
      return;
    }
    let hits = 0;
    for (const [index, line] of splitLines(text).entries()) {
      if (matcher.test(line) === flags.has('v')) continue;
      hits++;
      if (flags.has('l') || flags.has('c')) continue;
      io.out(`${showNames ? `${path}:` : ''}${flags.has('n') ? `${index + 1}:` : ''}${line}\n`);
    }
    if (hits > 0) matched = true;
    if (flags.has('l') && hits > 0) io.out(`${path}\n`);
    else if (flags.has('c')) io.out(`${showNames ? `${path}:` : ''}${hits}\n`);
  };
  for (const path of paths) {
    const entry = await io.attempt('grep', path, () => io.sandbox.stat(path).then((found) => found ?? missing()));
    if (entry === false) {
      failed = true;
      continue;
    }
    if (entry.kind === 'file') {
      await search(path);
      continue;
    }
    if (!recursive) {
      io.error('grep', `${path}: Is a directory`);
      failed = true;
      continue;
    }
    await searchTree(io, path, search);
  }
  if (failed) return 2;
  return matched ? 0 : 1;
};

async function searchTree(io: ShellIo, path: string, search: (path: string) => Promise<void>): Promise<void> {
  for await (const walked of walkTree(io, path)) if (walked.entry.kind === 'file') await search(walked.path);
}

function wrap(pattern: string, flags: ReadonlySet<string>): string {
  if (!flags.has('w') && !flags.has('x')) return pattern;
  const body = flags.has('F') ? pattern.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : `(?:${pattern})`;
  return flags.has('x') ? `^${body}$` : `\\b${body}\\b`;
}

function missing(): never {
  throw new ToolError('No such file or directory');
}
