/** One entry of a skill source's directory. */
export interface SkillSourceEntry {
  /** The entry's name within its directory (no `/`). */
  readonly name: string;
  /** A file or a directory. */
  readonly kind: 'file' | 'directory';
  /** The file's size in bytes, when the source knows it without reading the file. */
  readonly size?: number;
}

/**
 * Where a skill catalog reads its files: the seam a bundle, the workspace, an
 * application store (KV, R2, IndexedDB) implements. A source is a read-only
 * tree whose root holds one folder per skill (`refunds/SKILL.md`,
 * `refunds/references/policy.md`); paths are `/`-separated and relative to
 * that root (`''` is the root itself).
 *
 * Sources come from application configuration, never from the model. The
 * catalog reads them through this interface only; the shared contract suite
 * (`test/contract/skill-source.ts`) checks what every source must do.
 *
 * @example
 * const source: SkillSource = new MemorySkillSource({ 'refunds/SKILL.md': '---\nname: refunds\ndescription: Refund rules.\n---\nCheck the date.' });
 */
export interface SkillSource {
  /** The seam's version. */
  readonly version: 'skill-source-v1';
  /**
   * The model-visible place of the source's root, used to build each skill's
   * location (`<location>/<folder>/SKILL.md`): `workspace://skills`, or a
   * label such as `/skills` for files the model can only reach through the
   * `skills` tool.
   */
  readonly location: string;
  /**
   * Whether the model can read the files at `location` with its filesystem
   * tools. Resources are then listed by their full location; otherwise by
   * their path relative to the skill.
   */
  readonly readable: boolean;
  /** The entries of a directory, or `undefined` when there is no directory at `path`. */
  list(path: string): Promise<readonly SkillSourceEntry[] | undefined>;
  /** The bytes (or text) of the file at `path`; rejects when it cannot be read. */
  read(path: string): Promise<Uint8Array | string>;
}

/** Whether `value` implements {@link SkillSource}. */
export function isSkillSource(value: unknown): value is SkillSource {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 'skill-source-v1' &&
    typeof (value as { list?: unknown }).list === 'function' &&
    typeof (value as { read?: unknown }).read === 'function' &&
    typeof (value as { location?: unknown }).location === 'string'
  );
}
