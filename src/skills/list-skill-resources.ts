import type { SkillSource } from './skill-source.ts';

/** The conventional folders of a skill (the Agent Skills specification's): listed first. */
export const RESOURCE_DIRECTORIES = ['scripts', 'references', 'assets'] as const;
/** How deep folders are walked: files at most three folders below the skill folder (`references/a/b/c.md`). */
export const MAX_RESOURCE_DEPTH = 3;
/** Most directory entries one skill's listing looks at, whatever the limit on listed files. */
export const MAX_RESOURCE_ENTRIES = 1_000;

/**
 * Every file of a skill folder but its `SKILL.md`, as paths relative to the
 * folder: the Agent Skills specification allows any files and folders beside
 * `SKILL.md` (`reference/`, `templates/`, `FORMS.md`), so all are listed,
 * the conventional folders (`scripts/`, `references/`, `assets/`) first,
 * each group in code-point order. Bounded: folders deeper than
 * {@link MAX_RESOURCE_DEPTH} are not walked, at most
 * {@link MAX_RESOURCE_ENTRIES} entries are looked at, and listing failures
 * hide only what could not be listed.
 */
export async function listSkillResources(source: SkillSource, folder: string): Promise<string[]> {
  const files: string[] = [];
  let seen = 0;
  let level: string[] = [''];
  for (let depth = 0; depth <= MAX_RESOURCE_DEPTH && level.length > 0 && seen < MAX_RESOURCE_ENTRIES; depth++) {
    const next: string[] = [];
    const listed = await Promise.all(level.map((prefix) => source.list(prefix === '' ? folder : `${folder}/${prefix}`).catch(() => undefined)));
    listed.forEach((entries, index) => {
      const prefix = level[index]!;
      for (const entry of entries ?? []) {
        if (++seen > MAX_RESOURCE_ENTRIES) return;
        const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
        if (entry.kind === 'directory') next.push(path);
        else if (path !== 'SKILL.md') files.push(path);
      }
    });
    level = next;
  }
  const conventional = (path: string) => (RESOURCE_DIRECTORIES as readonly string[]).includes(path.split('/')[0]!) && path.includes('/');
  return files.sort((a, b) => Number(conventional(b)) - Number(conventional(a)) || compareCodePoints(a, b));
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
