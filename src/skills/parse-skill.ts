import { parseFrontMatter } from './front-matter.ts';
import type { Skill } from './skill.ts';
import type { SkillDiagnostic, SkillDiagnosticCode } from './skill-diagnostic.ts';

/** What parsing one `SKILL.md` gives: the skill (unless skipped) and every finding. */
export interface ParsedSkill {
  /** The skill, or `undefined` when the file was skipped. */
  readonly skill: Skill | undefined;
  /** The skip reason or the specification warnings, in order. */
  readonly diagnostics: readonly SkillDiagnostic[];
}

/** Names the seeds accept. */
export const SAFE_SKILL_NAME = /^[a-zA-Z0-9_-]+$/;
/** Names the Agent Skills specification accepts (besides length and the folder rule). */
const SPEC_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses one `SKILL.md`. The seeds' rules decide whether it loads: front
 * matter that is a YAML mapping, a non-empty `name` of letters, digits, `_`
 * and `-`, a non-empty single-line `description`. What the Agent Skills
 * specification forbids beyond that (uppercase or `_` in names, a name that
 * differs from its folder, over-long fields, non-string metadata) loads with
 * a warning, as its lenient-loading guidance says.
 */
export function parseSkill(content: Uint8Array | string, folder: string, location: string): ParsedSkill {
  const diagnostics: SkillDiagnostic[] = [];
  const skip = (code: SkillDiagnosticCode, message: string, skill?: string): ParsedSkill => ({
    skill: undefined,
    diagnostics: [...diagnostics, { severity: 'skip', code, message: `${message}: ${location}`, location, ...(skill ? { skill } : {}) }],
  });

  let text: string;
  try {
    text = (typeof content === 'string' ? content : decoder.decode(content)).replace(/^\uFEFF/, '');
  } catch {
    return skip('invalid-utf8', 'Skill is not valid UTF-8');
  }
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) {
    return parsed.code === 'missing-front-matter'
      ? skip('missing-front-matter', 'Skill must have YAML front matter')
      : skip('invalid-yaml', `Invalid skill front matter (${parsed.detail})`);
  }
  const data = parsed.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) return skip('front-matter-not-mapping', 'Skill front matter must be a mapping');
  const fields = data as Record<string, unknown>;

  const name = scalarText(fields.name);
  const description = scalarText(fields.description);
  if (name === undefined) return skip('unsafe-name', 'Skill name must be text');
  if (!name) return skip('name-required', 'Skill name is required');
  if (description === undefined) return skip('description-required', 'Skill description must be text', name);
  if (!description) return skip('description-required', 'Skill description is required', name);
  if (!SAFE_SKILL_NAME.test(name)) return skip('unsafe-name', 'Skill name contains unsafe characters');
  if (/[\r\n]/.test(description)) return skip('multiline-description', 'Skill description must be one line', name);

  const warn = (code: SkillDiagnosticCode, message: string) =>
    diagnostics.push({ severity: 'warning', code, message: `${message}: ${location}`, location, skill: name });
  if (parsed.repaired) warn('yaml-repaired', 'Skill front matter is not valid YAML; values containing ": " were quoted to read it');
  checkSpecification(fields, name, description, folder, warn);

  const skill: Skill = Object.freeze({
    name,
    description,
    instructions: parsed.body.trim(),
    location,
    folder,
    allowedTools: Object.freeze(allowedTools(fields)),
    compatibility: fields.compatibility === undefined || fields.compatibility === null ? undefined : plainText(fields.compatibility),
    license: typeof fields.license === 'string' ? fields.license : undefined,
    metadata: Object.freeze(isMapping(fields.metadata) ? { ...fields.metadata } : {}),
  });
  return { skill, diagnostics };
}

/** Warnings for what the Agent Skills specification forbids but the seeds allow. */
function checkSpecification(
  fields: Record<string, unknown>,
  name: string,
  description: string,
  folder: string,
  warn: (code: SkillDiagnosticCode, message: string) => void,
): void {
  if (!SPEC_NAME.test(name)) warn('name-format', `Skill name ${name} should use only lowercase letters, digits and single inner hyphens`);
  if (length(name) > 64) warn('name-too-long', `Skill name ${name} is longer than 64 characters`);
  if (name !== folder) warn('name-mismatch', `Skill name ${name} does not match its folder ${folder}`);
  if (length(description) > 1024) warn('description-too-long', 'Skill description is longer than 1024 characters');
  const compatibility = fields.compatibility;
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.trim() === '' || length(compatibility) > 500)) {
    warn('compatibility-format', 'Skill compatibility should be text of 1 to 500 characters');
  }
  if (fields.license !== undefined && typeof fields.license !== 'string') warn('license-format', 'Skill license should be text');
  const metadata = fields.metadata;
  if (metadata !== undefined && !(isMapping(metadata) && Object.values(metadata).every((value) => typeof value === 'string'))) {
    warn('metadata-format', 'Skill metadata should map strings to strings');
  }
  if (fields['allowed-tools'] === undefined && fields.allowed_tools !== undefined) {
    warn('allowed-tools-format', 'Skill allowed_tools should be spelled allowed-tools');
  } else if (fields['allowed-tools'] !== undefined && typeof fields['allowed-tools'] !== 'string') {
    warn('allowed-tools-format', 'Skill allowed-tools should be a space-separated string');
  }
  for (const key of Object.keys(fields)) {
    if (!KNOWN_FIELDS.has(key) && key !== 'allowed_tools') warn('unknown-field', `Skill front matter field ${key} is not part of the specification`);
  }
}

/** `allowed-tools` (or `allowed_tools`): a whitespace-separated string or a list. */
function allowedTools(fields: Record<string, unknown>): string[] {
  const value = isPresent(fields['allowed-tools']) ? fields['allowed-tools'] : fields.allowed_tools;
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/\s+/).filter((item) => item.length > 0);
  const items = Array.isArray(value) ? value : [value];
  return items.map(plainText).filter((item) => item.length > 0);
}

/** Text of a scalar (trimmed), `''` for null; `undefined` for lists and mappings. */
function scalarText(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Text of any value: strings as written, scalars converted, anything else as JSON. */
function plainText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value);
}

const isPresent = (value: unknown) => value !== undefined && value !== null && value !== false;
const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const length = (text: string) => [...text].length;
