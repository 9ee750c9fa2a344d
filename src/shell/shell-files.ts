import type { WorkspaceEntry } from '../workspace/workspace-options.ts';
import type { ShellIo } from './shell-io.ts';

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Reads a file as text (invalid UTF-8 shows as U+FFFD, as a terminal would). */
export async function readText(io: ShellIo, path: string): Promise<string> {
  return lenient.decode(await io.sandbox.readBytes(path));
}

/** Joins a displayed path and a child name the way `find` and `grep -r` print them. */
export function childPath(parent: string, name: string): string {
  return parent.endsWith('/') ? `${parent}${name}` : `${parent}/${name}`;
}

/** One entry met while walking a directory tree. */
export interface WalkedEntry {
  /** The path as the command prints it (the operand joined with names). */
  readonly path: string;
  /** How deep beneath the operand (1 for its direct entries). */
  readonly depth: number;
  readonly entry: WorkspaceEntry;
}

/** Walks a directory through the sandbox (only what the sandbox shows), depth first in name order. */
export async function* walkTree(io: ShellIo, path: string, depth = 1): AsyncGenerator<WalkedEntry> {
  for (const entry of await io.sandbox.entries(path)) {
    io.checkpoint();
    const child = childPath(path, entry.name);
    yield { path: child, depth, entry };
    if (entry.kind === 'directory') yield* walkTree(io, child, depth + 1);
  }
}

/** Splits text into lines the way line tools see them (a final newline ends the last line). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
