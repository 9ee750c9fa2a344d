import { ConfigurationError } from '../error/configuration-error.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const skillLimitMarker = errorMarker('SkillLimitError');

/**
 * A skill catalog is over one of its limits: more `SKILL.md` files than
 * `maxSkills` ("Skill catalog exceeds N skills", invalid ones included), or a
 * `SKILL.md` over `maxFileBytes` ("Skill exceeds N bytes: LOCATION"). It is a
 * `ConfigurationError`: the catalog does not load and the run does not start.
 */
export class SkillLimitError extends ConfigurationError {
  readonly [skillLimitMarker] = true;
  override readonly name = 'SkillLimitError';
  /** Which limit was exceeded. */
  readonly limit: 'maxSkills' | 'maxFileBytes';

  constructor(limit: 'maxSkills' | 'maxFileBytes', message: string) {
    super(message);
    this.limit = limit;
  }

  /** Whether `error` is a SkillLimitError. */
  static override isInstance = markerGuard<SkillLimitError>(skillLimitMarker);
}
