import { ConfigurationError } from '../error/configuration-error.ts';
import type { SkillSource, SkillSourceEntry } from './skill-source.ts';

const encoder = new TextEncoder();

/** Options of a {@link MemorySkillSource}. */
export interface MemorySkillSourceOptions {
  /** The model-visible root used in locations (default `/skills`). */
  readonly location?: string;
  /** Whether the model can read these files at `location` (e.g. they are also mounted in the workspace). Default `false`. */
  readonly readable?: boolean;
}

/**
 * A {@link SkillSource} over files the application holds in memory: a record
 * of `folder/SKILL.md`-style paths to text or bytes. Use it for skills built
 * by code, fetched from a store, or bundled at build time (see
 * {@link bundledSkillSource}). The files are copied; later changes to the
 * record do not show.
 *
 * @example
 * const source = new MemorySkillSource({
 *   'refund_guide/SKILL.md': '---\nname: refund_guide\ndescription: Decide which refund rule applies.\n---\nCheck the purchase date.',
 *   'refund_guide/references/policy.md': '# Policy',
 * });
 */
export class MemorySkillSource implements SkillSource {
  readonly version = 'skill-source-v1' as const;
  readonly location: string;
  readonly readable: boolean;
  readonly #files = new Map<string, Uint8Array>();
  readonly #directories = new Map<string, Map<string, SkillSourceEntry>>([['', new Map()]]);

  /** Builds the tree; a path that is empty, absolute, or uses `.`, `..` or `\` is a `ConfigurationError`. */
  constructor(files: Readonly<Record<string, string | Uint8Array>>, options: MemorySkillSourceOptions = {}) {
    this.location = options.location ?? '/skills';
    this.readable = options.readable === true;
    for (const [path, content] of Object.entries(files)) {
      const data = typeof content === 'string' ? encoder.encode(content) : content.slice();
      this.#add(splitPath(path), data);
    }
  }

  /** The paths of every file, sorted. */
  get paths(): string[] {
    return [...this.#files.keys()].sort();
  }

  async list(path: string): Promise<readonly SkillSourceEntry[] | undefined> {
    const directory = this.#directories.get(path);
    return directory ? [...directory.values()] : undefined;
  }

  async read(path: string): Promise<Uint8Array> {
    const data = this.#files.get(path);
    if (!data) throw new Error(`No such file: ${path}`);
    return data.slice();
  }

  #add(segments: string[], data: Uint8Array): void {
    let parent = '';
    for (const [index, name] of segments.entries()) {
      const path = parent === '' ? name : `${parent}/${name}`;
      const entries = this.#directories.get(parent)!;
      const last = index === segments.length - 1;
      const existing = entries.get(name);
      if (existing && (last || existing.kind === 'file')) {
        throw new ConfigurationError(`Skill file path is used twice: ${segments.join('/')}`);
      }
      if (last) {
        entries.set(name, Object.freeze({ name, kind: 'file' as const, size: data.byteLength }));
        this.#files.set(path, data);
      } else if (!existing) {
        entries.set(name, Object.freeze({ name, kind: 'directory' as const }));
        this.#directories.set(path, new Map());
      }
      parent = path;
    }
  }
}

function splitPath(path: string): string[] {
  const segments = path.split('/');
  const unsafe = path.includes('\\') || path.includes('\0') || segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (unsafe) throw new ConfigurationError(`Skill file paths must be relative, without empty, . or .. segments: ${JSON.stringify(path)}`);
  return segments;
}
