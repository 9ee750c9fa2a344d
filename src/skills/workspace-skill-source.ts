import { ConfigurationError } from '../error/configuration-error.ts';
import type { SkillSource, SkillSourceEntry } from './skill-source.ts';

/** What a skill source needs of a workspace (the run's `Workspace` has it). */
export interface SkillWorkspace {
  /** The entry at a reference, or `undefined`; throws for a reference the workspace does not know. */
  stat(target: string): Promise<{ readonly kind: 'file' | 'directory' } | undefined>;
  /** The entries of a directory. */
  list(target: string): Promise<ReadonlyArray<{ readonly name: string; readonly kind: 'file' | 'directory'; readonly size: number }>>;
  /** A file's bytes. */
  readFile(target: string): Promise<Uint8Array>;
}

/**
 * A {@link SkillSource} over a path of a workspace, such as
 * `workspace://skills`: skill locations read `workspace://skills/<folder>/SKILL.md`,
 * the same references the filesystem tools accept. The catalog reads the
 * workspace directly (skills are application configuration); what the model
 * may read is the sandbox's decision, and the skills capability refuses a
 * sandbox that could write there.
 *
 * @example
 * const workspace = await Workspace.open({ paths: { skills: { store: new MemoryWorkspaceStore({ files }) } } });
 * const catalog = await SkillCatalog.load({ sources: [new WorkspaceSkillSource(workspace, 'workspace://skills')] });
 */
export class WorkspaceSkillSource implements SkillSource {
  readonly version = 'skill-source-v1' as const;
  readonly location: string;
  readonly readable: boolean;
  readonly #workspace: SkillWorkspace;

  /** The workspace the files are read from. */
  get workspace(): SkillWorkspace {
    return this.#workspace;
  }

  /** `readable`: whether the run's sandbox lets tools read the path (resources are then listed by reference). */
  constructor(workspace: SkillWorkspace, reference = 'workspace://skills', options: { readable?: boolean } = {}) {
    if (!reference.startsWith('workspace://')) throw new ConfigurationError(`A workspace skill path must be a workspace:// reference: ${reference}`);
    this.#workspace = workspace;
    this.location = reference.replace(/\/+$/, '');
    this.readable = options.readable ?? true;
  }

  async list(path: string): Promise<readonly SkillSourceEntry[] | undefined> {
    const target = this.#target(path);
    let entry;
    try {
      entry = await this.#workspace.stat(target);
    } catch (error) {
      if (path === '') throw new ConfigurationError(`Skill path ${this.location} is not a path of the workspace`, { cause: error });
      throw error;
    }
    if (entry?.kind !== 'directory') return undefined;
    return (await this.#workspace.list(target)).map(({ name, kind, size }) => (kind === 'file' ? { name, kind, size } : { name, kind }));
  }

  async read(path: string): Promise<Uint8Array> {
    return this.#workspace.readFile(this.#target(path));
  }

  #target(path: string): string {
    return path === '' ? this.location : `${this.location}/${path}`;
  }
}
