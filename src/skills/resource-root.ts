import { ConfigurationError } from '../error/configuration-error.ts';

const WORKSPACE_SCHEME = 'workspace://';
const MESSAGE = 'resource_root must be an absolute path or workspace:// reference';

/**
 * Checks a skill resource root: an absolute path (`/skills`, normalised) or a
 * `workspace://NAME[/sub/path]` reference whose name is letters, digits, `_`
 * and `-`, without empty, `.` or `..` segments, NUL or backslashes. Anything
 * else is a `ConfigurationError` with the seeds' message.
 */
export function normalizeResourceRoot(value: string): string {
  if (typeof value !== 'string' || value.includes('\0') || value.includes('\\')) throw new ConfigurationError(MESSAGE);
  if (value.startsWith(WORKSPACE_SCHEME)) {
    const [name, ...rest] = value.slice(WORKSPACE_SCHEME.length).split('/');
    const invalid = !name || !/^[a-zA-Z0-9_-]+$/.test(name) || rest.some((segment) => segment === '' || segment === '.' || segment === '..');
    if (invalid) throw new ConfigurationError(MESSAGE);
    return value;
  }
  const segments = value.split('/');
  if (!value.startsWith('/') || segments.includes('..')) throw new ConfigurationError(MESSAGE);
  return `/${segments.filter((segment) => segment !== '' && segment !== '.').join('/')}`;
}

/** Whether a resource root names a workspace path. */
export const isWorkspaceReference = (root: string): boolean => root.startsWith(WORKSPACE_SCHEME);
