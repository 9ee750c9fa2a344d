import type { ArtifactStorage } from './artifact-storage.ts';

/**
 * What artifact storage needs of a workspace (the `Workspace` of
 * `ghostlight`'s workspace module has it): named paths, file writes and
 * deletes, and logical references.
 */
export interface ArtifactWorkspace {
  readonly paths: ReadonlyMap<string, unknown>;
  definePath(name: string, spec: string): Promise<void>;
  exists(target: string): Promise<boolean>;
  writeFile(target: string, content: Uint8Array, options?: { parents?: boolean }): Promise<void>;
  delete(target: string): Promise<void>;
  reference(target: string): string;
}

/** Whether `value` can hold artifacts (duck-typed, so the artifacts module does not depend on the workspace module). */
export function isArtifactWorkspace(value: unknown): value is ArtifactWorkspace {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.paths instanceof Map &&
    ['definePath', 'exists', 'writeFile', 'delete', 'reference'].every((method) => typeof candidate[method] === 'function')
  );
}

/**
 * Artifact files in a workspace under the named path `artifacts`
 * (`workspace://artifacts/…`), declared on first use when the workspace does
 * not have it. Declaring the path grants the model nothing: give the sandbox
 * read access to it and a filesystem tool when the model should read the files.
 */
export class WorkspaceArtifactStorage implements ArtifactStorage {
  readonly version = 'artifact-storage-v1' as const;
  readonly #workspace: ArtifactWorkspace;
  readonly #path: string;
  #ready: Promise<void> | undefined;

  constructor(workspace: ArtifactWorkspace, path = 'artifacts') {
    this.#workspace = workspace;
    this.#path = path;
  }

  async write(name: string, data: Uint8Array): Promise<string> {
    await (this.#ready ??= this.#workspace.paths.has(this.#path) ? Promise.resolve() : this.#workspace.definePath(this.#path, this.#path));
    const target = `workspace://${this.#path}/${name}`;
    if (await this.#workspace.exists(target)) throw new Error('Artifact destination already exists');
    await this.#workspace.writeFile(target, data, { parents: true });
    return this.#workspace.reference(target);
  }

  async remove(name: string): Promise<void> {
    const target = `workspace://${this.#path}/${name}`;
    if (await this.#workspace.exists(target)) await this.#workspace.delete(target);
  }
}
