import { ConfigurationError } from '../error/configuration-error.ts';
import type { WorkspaceLocation, WorkspaceMount } from './workspace-options.ts';
import { parseReference, WORKSPACE_PATH_NAME, WORKSPACE_SCHEME } from './workspace-path.ts';
import { isWorkspaceStore } from './workspace-store.ts';
import { WorkspaceVolume } from './workspace-volume.ts';

const ROOT = 'root';

/**
 * Checks a named path declaration and works out its location: a directory
 * beneath the root, or a new volume for a `{ store }` mount (added to
 * `volumes`). Bad names, escapes and aliases are a `ConfigurationError`.
 * The caller records the name.
 */
export function declarePath(
  name: string,
  spec: string | WorkspaceMount,
  named: ReadonlyMap<string, WorkspaceLocation>,
  volumes: Map<string, WorkspaceVolume>,
  now: number,
): WorkspaceLocation {
  if (typeof name !== 'string' || !WORKSPACE_PATH_NAME.test(name)) {
    throw new ConfigurationError(`workspace path name must contain only letters, digits, '_' and '-': ${String(name)}`);
  }
  if (name === ROOT) throw new ConfigurationError('workspace path name root is reserved for the workspace root');
  if (named.has(name)) throw new ConfigurationError(`workspace path ${name} is already defined`);
  if (typeof spec === 'string') {
    if (spec.length === 0) throw new ConfigurationError(`workspace path ${name} must not be empty`);
    if (spec.startsWith(WORKSPACE_SCHEME)) throw new ConfigurationError(`workspace path ${name} must be a directory beneath the root`);
    let path: string;
    try {
      path = parseReference(spec).path;
    } catch (error) {
      throw new ConfigurationError(`relative workspace path ${name} must remain beneath the workspace root`, { cause: error });
    }
    const alias = path === '' ? ROOT : [...named].find(([, other]) => other.volume === ROOT && other.path === path)?.[0];
    if (alias) throw new ConfigurationError(`workspace paths must not alias the same directory: ${alias}, ${name}`);
    return { volume: ROOT, path };
  }
  if (isWorkspaceStore(spec?.store)) {
    const alias = [...volumes.values()].find((volume) => volume.store === spec.store);
    if (alias) throw new ConfigurationError(`workspace paths must not alias the same directory: ${alias.name}, ${name}`);
    volumes.set(name, new WorkspaceVolume(name, spec.store, now));
    return { volume: name, path: '' };
  }
  throw new ConfigurationError(`workspace path ${name} must be a relative directory or { store }`);
}
