import type { SkillSource } from './skill-source.ts';

/** The folders of a skill whose files are listed as resources. */
export const RESOURCE_DIRECTORIES = ['scripts', 'references', 'assets'] as const;
/** How deep resource folders are walked (files at most three folders below `references/`). */
export const MAX_RESOURCE_DEPTH = 3;

/**
 * The files under a skill's `scripts/`, `references/` and `assets/`, as paths
 * relative to the skill folder (`references/nested/guide.md`), sorted.
 * Deeper than {@link MAX_RESOURCE_DEPTH} folders is not walked; listing
 * failures hide only what could not be listed.
 */
export async function listSkillResources(source: SkillSource, folder: string): Promise<string[]> {
  const lists = await Promise.all(RESOURCE_DIRECTORIES.map((name) => walk(source, `${folder}/${name}`, name, 0)));
  return lists.flat().sort(compareCodePoints);
}

async function walk(source: SkillSource, path: string, prefix: string, depth: number): Promise<string[]> {
  if (depth >= MAX_RESOURCE_DEPTH) return [];
  let entries;
  try {
    entries = await source.list(path);
  } catch {
    return [];
  }
  if (!entries) return [];
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.kind === 'directory'
        ? walk(source, `${path}/${entry.name}`, `${prefix}/${entry.name}`, depth + 1)
        : Promise.resolve([`${prefix}/${entry.name}`]),
    ),
  );
  return nested.flat();
}

/** Orders strings by code point (as Ruby's `sort` orders UTF-8 bytes), not by locale. */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
