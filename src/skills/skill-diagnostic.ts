/**
 * Why a `SKILL.md` was skipped (the seeds' rules: the skill is not loaded) or
 * what it breaks of the Agent Skills specification while still loading.
 */
export type SkillDiagnosticCode =
  // skipped
  | 'unreadable'
  | 'invalid-utf8'
  | 'missing-front-matter'
  | 'invalid-yaml'
  | 'front-matter-not-mapping'
  | 'name-required'
  | 'description-required'
  | 'unsafe-name'
  | 'multiline-description'
  // loaded with a warning
  | 'yaml-repaired'
  | 'name-format'
  | 'name-too-long'
  | 'name-mismatch'
  | 'description-too-long'
  | 'compatibility-format'
  | 'license-format'
  | 'metadata-format'
  | 'allowed-tools-format'
  | 'unknown-field'
  | 'shadowed'
  | 'only-unknown';

/** One finding of a catalog load, readable by the application (never shown to the model). */
export interface SkillDiagnostic {
  /** `skip`: the skill was not loaded. `warning`: it was loaded anyway (lenient loading). */
  readonly severity: 'skip' | 'warning';
  /** A stable code for programs. */
  readonly code: SkillDiagnosticCode;
  /** A sentence for people, naming the file. */
  readonly message: string;
  /** The model-visible location of the `SKILL.md` (absent for catalog-wide findings). */
  readonly location?: string;
  /** The skill's name, once known. */
  readonly skill?: string;
}
