import type { ToolBinding } from '../tool/tool-binding.ts';
import type { SkillCatalog } from './skill-catalog.ts';
import type { SkillSource } from './skill-source.ts';

/** Where skills come from: a {@link SkillSource}, or a `workspace://NAME` reference into the run's workspace. */
export type SkillPath = SkillSource | string;

/** Options of `skills(options)` (`skills()` takes every default). */
export interface SkillsOptions {
  /**
   * The skill roots, in order (later ones override earlier names), or a
   * function of the run's binding that returns them. They come from
   * application configuration, never from the model or the request. Without
   * them the run's `skillPaths` option is used, then `workspace://skills`.
   */
  readonly paths?: readonly SkillPath[] | ((binding: ToolBinding) => readonly SkillPath[] | Promise<readonly SkillPath[]>);
  /** Expose only these skill names. */
  readonly only?: readonly string[];
  /** At most this many `SKILL.md` files, invalid ones included (default 1,000). */
  readonly maxSkills?: number;
  /** At most this many bytes per `SKILL.md` (default 1,000,000). */
  readonly maxFileBytes?: number;
  /** List at most this many resource files per skill (default 20). */
  readonly maxResourceFiles?: number;
  /** The model-visible root replacing the sources' locations (the run's `skillResourceRoot` wins). */
  readonly resourceRoot?: string;
  /** Called with each run's catalog (read `catalog.diagnostics` to log skipped skills and warnings). */
  readonly onLoad?: (catalog: SkillCatalog, binding: ToolBinding) => void | Promise<void>;
}

/** What `skills()` accepts: options, or a catalog loaded once by the application. */
export type SkillsConfig = SkillsOptions | SkillCatalog;
