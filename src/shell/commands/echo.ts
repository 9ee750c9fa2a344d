import type { ShellCommand } from '../shell-io.ts';

/** `echo [-n] words…`: prints its arguments separated by spaces. */
export const echo: ShellCommand = async (io, args) => {
  const newline = args[0] !== '-n';
  io.out(`${(newline ? args : args.slice(1)).join(' ')}${newline ? '\n' : ''}`);
  return 0;
};
