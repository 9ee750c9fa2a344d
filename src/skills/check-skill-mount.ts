import { ConfigurationError } from '../error/configuration-error.ts';

/** A location in a workspace (volume and path), as the workspace reports it. */
interface MountLocation {
  readonly volume: string;
  readonly path: string;
}

/** What the mount check needs of the run's workspace. */
export interface MountWorkspace {
  readonly paths: ReadonlyMap<string, MountLocation>;
  resolve(target: string): MountLocation;
}

/** What the mount check needs of the run's sandbox. */
export interface MountSandbox {
  readonly workspace: unknown;
  allows(operation: string, path?: string): boolean;
}

/**
 * Checks that tools cannot change the skills at `reference` (a
 * `workspace://` path): the sandbox must govern the run's workspace, must not
 * allow writes there, and no writable named path may sit inside it. Returns
 * whether tools can read it. With `requireReadable` (a configured resource
 * root), an unreadable path is an error too. Messages are the seeds'.
 */
export function checkSkillMount(
  reference: string,
  workspace: MountWorkspace | undefined,
  sandbox: MountSandbox | undefined,
  requireReadable: boolean,
): boolean {
  if (!workspace || (requireReadable && !sandbox)) throw new ConfigurationError('workspace resource_root requires a Workspace and Sandbox');
  let root: MountLocation;
  try {
    root = workspace.resolve(reference);
  } catch (error) {
    throw new ConfigurationError(`workspace resource_root is not available: ${(error as Error).message}`, { cause: error });
  }
  if (!sandbox) return false;
  if (sandbox.workspace !== workspace) throw new ConfigurationError('workspace resource_root requires the Sandbox bound to its Workspace');
  const readable = sandbox.allows('filesystem_read', reference);
  if (sandbox.allows('filesystem_write', reference) || (requireReadable && !readable)) {
    throw new ConfigurationError('workspace resource_root must be tool-readable and read-only');
  }
  for (const [name, location] of workspace.paths) {
    const inside = location.volume === root.volume && (root.path === '' || location.path === root.path || location.path.startsWith(`${root.path}/`));
    if (inside && sandbox.allows('filesystem_write', `workspace://${name}`)) {
      throw new ConfigurationError('workspace resource_root must not contain writable file grants');
    }
  }
  return readable;
}
