/**
 * One valid skill loaded from a `SKILL.md`: its front matter fields and its
 * instructions (the trimmed Markdown body).
 */
export interface Skill {
  /** The `name` from the front matter (trimmed); the key the `skills` tool loads it by. */
  readonly name: string;
  /** The single-line `description` shown in the discovery prompt. */
  readonly description: string;
  /** The Markdown body after the front matter, trimmed. */
  readonly instructions: string;
  /** The model-visible location of the `SKILL.md` (`workspace://skills/refunds/SKILL.md`). */
  readonly location: string;
  /** The folder that holds the skill, relative to its source's root. */
  readonly folder: string;
  /** Tools the skill expects (`allowed-tools`). Informational only: it grants nothing. */
  readonly allowedTools: readonly string[];
  /** Environment requirements (`compatibility`), shown to the model when present. */
  readonly compatibility: string | undefined;
  /** The `license` field, when it is text. */
  readonly license: string | undefined;
  /** The `metadata` mapping as written (values need not be strings; a warning says so). */
  readonly metadata: Readonly<Record<string, unknown>>;
}
