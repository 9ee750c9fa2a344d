import { ConfigurationError } from '../error/configuration-error.ts';
import { compareCodePoints } from './list-skill-resources.ts';
import { parseSkill } from './parse-skill.ts';
import type { Skill } from './skill.ts';
import type { SkillDiagnostic } from './skill-diagnostic.ts';
import { SkillLimitError } from './skill-limit-error.ts';
import type { SkillSource } from './skill-source.ts';
import { Semaphore } from '../util/semaphore.ts';

/** How many `SKILL.md` files are read at once (sources may be remote stores). */
const READ_CONCURRENCY = 16;

/** The limits and filters of one load. */
export interface LoadSkillsOptions {
  readonly sources: readonly SkillSource[];
  readonly only: readonly string[] | undefined;
  readonly maxSkills: number;
  readonly maxFileBytes: number;
  /** Replaces every source's location in skill locations (`workspace://skills`, `/skills`). */
  readonly resourceRoot: string | undefined;
}

/** A loaded skill and the source its resources are listed from. */
export interface LoadedSkill {
  readonly skill: Skill;
  readonly source: SkillSource;
}

interface Candidate {
  readonly source: SkillSource;
  readonly folder: string;
  readonly size: number | undefined;
  readonly location: string;
}

/**
 * Finds every `<root>/<folder>/SKILL.md` of every source, in source order and
 * folder order, checks the count and size limits, parses each file and keeps
 * the valid ones by name; a later skill with the same name replaces an
 * earlier one (keeping its place), as later roots override earlier ones.
 */
export async function loadSkills(options: LoadSkillsOptions): Promise<{ skills: Map<string, LoadedSkill>; diagnostics: SkillDiagnostic[] }> {
  const reads = new Semaphore(READ_CONCURRENCY);
  const candidates = (await Promise.all(options.sources.map((source) => findCandidates(source, options.resourceRoot, reads)))).flat();
  if (candidates.length > options.maxSkills) throw new SkillLimitError('maxSkills', `Skill catalog exceeds ${options.maxSkills} skills`);
  for (const candidate of candidates) checkSize(candidate.size, candidate, options.maxFileBytes);
  const contents = await Promise.all(candidates.map((candidate) => reads.run(() => candidate.source.read(`${candidate.folder}/SKILL.md`)).then(
    (content) => ({ content }),
    (error: unknown) => ({ error }),
  )));

  const skills = new Map<string, LoadedSkill>();
  const diagnostics: SkillDiagnostic[] = [];
  const only = options.only ? new Set(options.only) : undefined;
  candidates.forEach((candidate, index) => {
    const read = contents[index]!;
    if ('error' in read) {
      const reason = read.error instanceof Error ? read.error.message : String(read.error);
      diagnostics.push({ severity: 'skip', code: 'unreadable', message: `Skill could not be read (${reason}): ${candidate.location}`, location: candidate.location });
      return;
    }
    checkSize(typeof read.content === 'string' ? new TextEncoder().encode(read.content).byteLength : read.content.byteLength, candidate, options.maxFileBytes);
    const parsed = parseSkill(read.content, candidate.folder, candidate.location);
    const skill = parsed.skill;
    if (skill && only && !only.has(skill.name)) {
      diagnostics.push(...parsed.diagnostics.filter((diagnostic) => diagnostic.severity === 'skip'));
      return;
    }
    diagnostics.push(...parsed.diagnostics);
    if (!skill) return;
    const earlier = skills.get(skill.name);
    if (earlier) {
      diagnostics.push({
        severity: 'warning',
        code: 'shadowed',
        message: `Skill ${skill.name} at ${earlier.skill.location} is overridden by ${skill.location}`,
        location: earlier.skill.location,
        skill: skill.name,
      });
    }
    skills.set(skill.name, { skill, source: candidate.source });
  });
  for (const name of options.only ?? []) {
    if (!skills.has(name)) diagnostics.push({ severity: 'warning', code: 'only-unknown', message: `Skill ${name} is listed in only but was not loaded`, skill: name });
  }
  return { skills, diagnostics };
}

async function findCandidates(source: SkillSource, resourceRoot: string | undefined, reads: Semaphore): Promise<Candidate[]> {
  const entries = await source.list('');
  if (!entries) throw new ConfigurationError(`Skill root does not exist: ${source.location}`);
  const folders = entries
    .filter((entry) => entry.kind === 'directory' && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort(compareCodePoints);
  const base = (resourceRoot ?? source.location).replace(/\/+$/, '');
  const found = await Promise.all(folders.map(async (folder): Promise<Candidate | undefined> => {
    const children = await reads.run(() => source.list(folder)).catch(() => undefined);
    const file = children?.find((child) => child.name === 'SKILL.md' && child.kind === 'file');
    return file ? { source, folder, size: file.size, location: `${base}/${folder}/SKILL.md` } : undefined;
  }));
  return found.filter((candidate): candidate is Candidate => candidate !== undefined);
}

function checkSize(size: number | undefined, candidate: Candidate, maxFileBytes: number): void {
  if (size !== undefined && size > maxFileBytes) throw new SkillLimitError('maxFileBytes', `Skill exceeds ${maxFileBytes} bytes: ${candidate.location}`);
}
