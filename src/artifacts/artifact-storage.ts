/**
 * Where a run's artifact files go: the seam a workspace (or any byte store)
 * implements. Names are already unique and safe (`[A-Za-z0-9._-]`); the store
 * above it decides them, enforces limits and rolls back failed batches.
 */
export interface ArtifactStorage {
  /** The seam's version. */
  readonly version: 'artifact-storage-v1';
  /** Writes a new file and returns its reference (e.g. `workspace://artifacts/NAME`). */
  write(name: string, data: Uint8Array): Promise<string>;
  /** Removes a file written by `write` (used to roll back a failed batch). */
  remove(name: string): Promise<void>;
}
