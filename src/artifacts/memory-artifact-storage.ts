import type { ArtifactStorage } from './artifact-storage.ts';

/**
 * Artifact files kept in memory under `workspace://artifacts/`, for runs
 * without a workspace and for tests. The application can read them back.
 *
 * @example
 * const storage = new MemoryArtifactStorage();
 * defineAgent({ name: 'reports', model, tools: [exportReport], artifacts: { storage } });
 * storage.read('workspace://artifacts/…');
 */
export class MemoryArtifactStorage implements ArtifactStorage {
  readonly version = 'artifact-storage-v1' as const;
  readonly #files = new Map<string, Uint8Array>();
  readonly #prefix: string;

  constructor(options: { prefix?: string } = {}) {
    this.#prefix = options.prefix ?? 'workspace://artifacts/';
  }

  async write(name: string, data: Uint8Array): Promise<string> {
    if (this.#files.has(name)) throw new Error('Artifact destination already exists');
    this.#files.set(name, data.slice());
    return `${this.#prefix}${name}`;
  }

  async remove(name: string): Promise<void> {
    this.#files.delete(name);
  }

  /** The bytes behind a reference this storage returned (a copy), or `undefined`. */
  read(reference: string): Uint8Array | undefined {
    if (!reference.startsWith(this.#prefix)) return undefined;
    return this.#files.get(reference.slice(this.#prefix.length))?.slice();
  }

  /** The references of every file held. */
  references(): string[] {
    return [...this.#files.keys()].map((name) => `${this.#prefix}${name}`);
  }
}
