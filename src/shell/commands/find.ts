import { ToolError } from '../../tool/tool-error.ts';
import { compileGlob } from '../../sandbox/glob-pattern.ts';
import { count, UsageError } from '../shell-args.ts';
import { walkTree } from '../shell-files.ts';
import type { ShellCommand } from '../shell-io.ts';

interface FindTest {
  readonly kind?: 'f' | 'd';
  readonly name?: (name: string) => boolean;
  readonly path?: (path: string) => boolean;
}

/**
 * `find [paths…] [-name GLOB] [-iname GLOB] [-path GLOB] [-type f|d]
 * [-maxdepth N] [-mindepth N]`: prints matching paths, the operand first.
 * Tests are combined with AND; actions such as `-exec` do not exist.
 */
export const find: ShellCommand = async (io, args) => {
  const firstTest = args.findIndex((arg) => arg.startsWith('-'));
  const roots = firstTest === -1 ? [...args] : args.slice(0, firstTest);
  const expression = firstTest === -1 ? [] : args.slice(firstTest);
  const tests: FindTest[] = [];
  let maxDepth = Number.POSITIVE_INFINITY;
  let minDepth = 0;
  for (let index = 0; index < expression.length; index++) {
    const option = expression[index]!;
    const value = expression[++index];
    if (value === undefined) throw new UsageError(`missing argument to '${option}'`);
    if (option === '-name') tests.push({ name: compileGlob(value) });
    else if (option === '-iname') {
      const matcher = compileGlob(value.toLowerCase());
      tests.push({ name: (name) => matcher(name.toLowerCase()) });
    } else if (option === '-path') {
      const matcher = compileGlob(value.replace(/^\.\//, ''));
      tests.push({ path: (path) => matcher(path.replace(/^\.\//, '')) });
    } else if (option === '-type') {
      if (value !== 'f' && value !== 'd') throw new UsageError(`unknown argument to -type: ${value}`);
      tests.push({ kind: value });
    } else if (option === '-maxdepth') maxDepth = count(value, 'levels');
    else if (option === '-mindepth') minDepth = count(value, 'levels');
    else throw new UsageError(`unknown predicate '${option}'`);
  }
  const matches = (path: string, name: string, kind: 'file' | 'directory') =>
    tests.every((test) =>
      (test.kind === undefined || (test.kind === 'f') === (kind === 'file')) &&
      (test.name === undefined || test.name(name)) &&
      (test.path === undefined || test.path(path)),
    );
  let status = 0;
  for (const root of roots.length > 0 ? roots : ['.']) {
    const found = await io.attempt('find', `'${root}'`, async () => {
      const entry = await io.sandbox.stat(root);
      if (!entry) throw new ToolError('No such file or directory');
      if (minDepth === 0 && matches(root, entry.name || root, entry.kind)) io.out(`${root}\n`);
      if (entry.kind !== 'directory' || maxDepth === 0) return true;
      for await (const walked of walkTree(io, root)) {
        if (walked.depth > maxDepth) continue;
        if (walked.depth >= minDepth && matches(walked.path, walked.entry.name, walked.entry.kind)) io.out(`${walked.path}\n`);
      }
      return true;
    });
    if (found === false) status = 1;
  }
  return status;
};
