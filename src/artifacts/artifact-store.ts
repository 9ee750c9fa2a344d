import { CleanupError } from '../error/control-errors.ts';
import { ToolError } from '../tool/tool-error.ts';
import { throwIfAborted } from '../util/abort.ts';
import { randomId } from '../util/id.ts';
import { Semaphore } from '../util/semaphore.ts';
import { sha256Hex } from '../util/sha256.ts';
import type { ArtifactLimits } from './artifact-limits.ts';
import type { ArtifactStorage } from './artifact-storage.ts';
import type { StoredArtifact } from '../content/stored-artifact.ts';

/** One file to store. */
export interface ArtifactEntry {
  readonly data: Uint8Array;
  readonly mediaType: string;
  readonly name?: string | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

const EXTENSIONS: Record<string, string> = {
  'application/json': '.json',
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/csv': '.csv',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'application/pdf': '.pdf',
};

/** The usual file extension of a media type (`.png`), or `''`. */
export function extensionOf(mediaType: string): string {
  return EXTENSIONS[mediaType.toLowerCase()] ?? '';
}

/**
 * The artifacts of one run: writes files through an {@link ArtifactStorage}
 * under unique names (`<run namespace>-<sha256>-<name>`), stores identical
 * artifacts once, enforces the per-artifact, per-run and count limits, and
 * writes each batch atomically: if any file fails, the files this batch wrote
 * are removed and its budget released.
 */
export class ArtifactStore {
  readonly #storage: ArtifactStorage;
  readonly #limits: ArtifactLimits;
  readonly #signal: AbortSignal | undefined;
  readonly #namespace = randomId().replace(/-/g, '').slice(0, 16);
  readonly #byDigest = new Map<string, StoredArtifact>();
  readonly #lock = new Semaphore(1);
  #totalBytes = 0;

  constructor(storage: ArtifactStorage, limits: ArtifactLimits, options: { signal?: AbortSignal } = {}) {
    this.#storage = storage;
    this.#limits = limits;
    this.#signal = options.signal;
  }

  /** Bytes stored so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Distinct artifacts stored so far. */
  get size(): number {
    return this.#byDigest.size;
  }

  /** Every stored artifact, in the order it was stored. */
  list(): StoredArtifact[] {
    return [...this.#byDigest.values()];
  }

  /** Stores one artifact (see {@link writeBatch}). */
  async write(entry: ArtifactEntry): Promise<StoredArtifact> {
    return (await this.writeBatch([entry]))[0]!;
  }

  /**
   * Stores every entry or none: a failure (a limit, the storage, a
   * cancellation) removes what this batch wrote before it rethrows; a removal
   * that fails too is a `CleanupError`. Entries identical to stored ones
   * (name, media type, metadata and bytes) return the stored artifact.
   */
  async writeBatch(entries: readonly ArtifactEntry[]): Promise<StoredArtifact[]> {
    throwIfAborted(this.#signal);
    const prepared = await Promise.all(entries.map((entry) => this.#prepare(entry)));
    return this.#lock.run(async () => {
      const created: Array<{ digest: string; fileName: string; bytes: number; written: boolean }> = [];
      try {
        const stored: StoredArtifact[] = [];
        for (const entry of prepared) {
          throwIfAborted(this.#signal);
          const existing = this.#byDigest.get(entry.digest);
          if (existing) {
            stored.push(existing);
            continue;
          }
          this.#reserve(entry.data.byteLength);
          const record = { digest: entry.digest, fileName: entry.fileName, bytes: entry.data.byteLength, written: false };
          created.push(record);
          const reference = await this.#storage.write(entry.fileName, entry.data);
          record.written = true;
          const artifact: StoredArtifact = Object.freeze({
            kind: 'stored' as const,
            reference,
            name: entry.name,
            mediaType: entry.mediaType,
            bytes: entry.data.byteLength,
            ...(entry.metadata ? { metadata: entry.metadata } : {}),
          });
          this.#byDigest.set(entry.digest, artifact);
          stored.push(artifact);
        }
        throwIfAborted(this.#signal);
        return stored;
      } catch (error) {
        await this.#rollback(created, error);
        throw error;
      }
    });
  }

  async #prepare(entry: ArtifactEntry) {
    if (entry.data.byteLength > this.#limits.maxArtifactBytes) {
      throw new ToolError(`Artifact exceeds the ${this.#limits.maxArtifactBytes}-byte limit`);
    }
    const name = normalizedName(entry.name, entry.mediaType);
    const metadata = entry.metadata ? JSON.stringify(entry.metadata) : '{}';
    const header = new TextEncoder().encode(`${name}\0${entry.mediaType}\0${metadata}\0`);
    const material = new Uint8Array(header.byteLength + entry.data.byteLength);
    material.set(header);
    material.set(entry.data, header.byteLength);
    const digest = await sha256Hex(material);
    return { ...entry, name, digest, fileName: `${this.#namespace}-${digest}-${name}` };
  }

  #reserve(bytes: number): void {
    if (this.#byDigest.size >= this.#limits.maxArtifacts) {
      throw new ToolError(`Artifact count exceeds the ${this.#limits.maxArtifacts}-item limit`);
    }
    if (this.#totalBytes + bytes > this.#limits.maxTotalBytes) {
      throw new ToolError(`Artifacts exceed the ${this.#limits.maxTotalBytes}-byte total limit`);
    }
    this.#totalBytes += bytes;
  }

  async #rollback(created: ReadonlyArray<{ digest: string; fileName: string; bytes: number; written: boolean }>, cause: unknown): Promise<void> {
    const failures: unknown[] = [];
    for (const record of [...created].reverse()) {
      try {
        if (record.written) await this.#storage.remove(record.fileName);
        this.#byDigest.delete(record.digest);
        this.#totalBytes -= record.bytes;
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) {
      const name = (value: unknown) => (value as { name?: string } | undefined)?.name ?? 'Error';
      throw new CleanupError({ errors: failures, message: `Artifact batch rollback failed after ${name(cause)} (${name(failures[0])})` });
    }
  }
}

/** A safe file name: the last path segment, `[A-Za-z0-9._-]` only, at most 120 bytes, `artifact<ext>` by default. */
export function normalizedName(name: string | undefined, mediaType: string): string {
  let value = name && name.length > 0 ? name : `artifact${extensionOf(mediaType)}`;
  value = value.split(/[/\\]/).pop() ?? '';
  value = value.replace(/[^A-Za-z0-9._-]/g, '_');
  if (value === '' || value === '.' || value === '..') value = 'artifact';
  return value.slice(0, 120);
}
