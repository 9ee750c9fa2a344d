import { ToolError } from '../tool/tool-error.ts';
import type { WorkspaceLocation } from '../workspace/workspace-options.ts';
import { baseName, sortNames, joinPath } from '../workspace/workspace-path.ts';
import type { DirectoryNode, TreeNode } from '../workspace/workspace-volume.ts';
import { compileGlob } from './glob-pattern.ts';
import { SandboxLimitError } from './sandbox-limit-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import { compileTextMatcher } from './text-matcher.ts';
import type { TextMatchOptions } from './text-matcher.ts';

/** Options of a glob search. */
export interface GlobOptions {
  /** The directory to search beneath (default `.`, the root). */
  readonly path?: string | undefined;
}

/** Options of a text search. */
export interface GrepOptions extends TextMatchOptions {
  /** A file, or the directory to search beneath (default `.`). */
  readonly path?: string | undefined;
  /** Only files whose name (or, with a `/`, relative path) matches this glob. */
  readonly glob?: string | undefined;
}

/** One matching line. */
export interface GrepMatch {
  /** The file's reference. */
  readonly reference: string;
  /** The 1-based line number. */
  readonly line: number;
  /** The line (long lines cut at 1,000 characters). */
  readonly text: string;
}

/** What a text search found. */
export interface GrepResult {
  readonly matches: readonly GrepMatch[];
  /** Whether the search stopped at the listing or output limit. */
  readonly truncated: boolean;
}

/** What a search needs from its view (internal). */
export interface SearchContext {
  readonly base: WorkspaceLocation;
  readonly limits: SandboxLimits;
  node(location: WorkspaceLocation): TreeNode | undefined;
  visible(location: WorkspaceLocation): boolean;
  reference(location: WorkspaceLocation): string;
  checkpoint(): void;
}

interface Walked {
  readonly location: WorkspaceLocation;
  readonly relative: string;
  readonly node: TreeNode;
}

const MAX_LINE_CHARS = 1_000;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Entries beneath the base whose relative path matches `pattern`, as references (directories end in `/`). */
export function globEntries(context: SearchContext, pattern: string): string[] {
  const matches = compileGlob(pattern);
  const root = directoryAt(context, context.base);
  const results: string[] = [];
  for (const entry of walk(context, context.base, root, '')) {
    if (!matches(entry.relative)) continue;
    if (results.length >= context.limits.listEntries) throw new SandboxLimitError('listEntries', 'Search exceeds the listing limit');
    const reference = context.reference(entry.location);
    results.push(entry.node.kind === 'directory' ? `${reference}/` : reference);
  }
  return results;
}

/** Lines matching `pattern` in the readable UTF-8 files at or beneath the base. */
export async function grepFiles(context: SearchContext, pattern: string, options: GrepOptions): Promise<GrepResult> {
  const matcher = compileTextMatcher(pattern, options);
  const filter = options.glob === undefined ? undefined : compileGlob(options.glob);
  const filterByPath = options.glob?.includes('/') === true;
  const start = context.node(context.base);
  if (!start) throw new ToolError('Path does not exist');
  const files: Walked[] = start.kind === 'file'
    ? [{ location: context.base, relative: baseName(context.base.path), node: start }]
    : [...walk(context, context.base, start, '')].filter((entry) => entry.node.kind === 'file');
  const matches: GrepMatch[] = [];
  let bytes = 0;
  for (const file of files) {
    if (filter && !filter(filterByPath ? file.relative : baseName(file.relative))) continue;
    const data = (file.node as { data: Uint8Array }).data;
    if (data.length > context.limits.readBytes) continue;
    let text: string;
    try {
      text = decoder.decode(data);
    } catch {
      continue;
    }
    if (!matcher.mayMatch(text)) continue;
    const reference = context.reference(file.location);
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!.endsWith('\r') ? lines[index]!.slice(0, -1) : lines[index]!;
      if (!matcher.test(line)) continue;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      bytes += reference.length + shown.length + 16;
      if (matches.length >= context.limits.listEntries || bytes > context.limits.outputBytes) return { matches, truncated: true };
      matches.push({ reference, line: index + 1, text: shown });
    }
  }
  return { matches, truncated: false };
}

function directoryAt(context: SearchContext, location: WorkspaceLocation): DirectoryNode {
  const node = context.node(location);
  if (!node) throw new ToolError('Path does not exist');
  if (node.kind !== 'directory') throw new ToolError('Path is not a directory');
  return node;
}

function* walk(context: SearchContext, location: WorkspaceLocation, directory: DirectoryNode, relative: string): Generator<Walked> {
  let visited = 0;
  const stack: Walked[] = children(location, directory, relative).reverse();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (++visited % 256 === 0) context.checkpoint();
    if (!context.visible(entry.location)) continue;
    yield entry;
    if (entry.node.kind === 'directory') stack.push(...children(entry.location, entry.node, entry.relative).reverse());
  }
}

function children(location: WorkspaceLocation, directory: DirectoryNode, relative: string): Walked[] {
  return sortNames([...directory.entries.keys()]).map((name) => ({
    location: { volume: location.volume, path: joinPath(location.path, name) },
    relative: joinPath(relative, name),
    node: directory.entries.get(name)!,
  }));
}
