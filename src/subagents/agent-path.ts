/** The path every top-level agent has; its subagents are `/root/<task_name>`, theirs `/root/<task_name>/<task_name>`. */
export const ROOT_AGENT_PATH = '/root';

/** The longest `task_name`. */
export const MAX_TASK_NAME_LENGTH = 40;

/** The longest agent path. */
export const MAX_AGENT_PATH_LENGTH = 1_024;

const TASK_NAME = /^[a-z0-9_]+$/;

/** An agent path or task name that breaks the rules (its message is model-facing). */
export class AgentPathError extends Error {
  override readonly name = 'AgentPathError';
}

/** Checks one model-chosen task name: lowercase letters, digits and `_`, at most 40, never `root`. */
export function checkTaskName(name: unknown): string {
  const value = String(name);
  if (value.length > MAX_TASK_NAME_LENGTH) throw new AgentPathError(`task_name must be at most ${MAX_TASK_NAME_LENGTH} characters`);
  if (value === 'root' || !TASK_NAME.test(value)) throw new AgentPathError('task_name must use lowercase letters, digits, and underscores');
  return value;
}

/** Checks an absolute agent path: `/root`, then task names, at most 1,024 characters. */
export function checkAgentPath(path: unknown): string {
  const value = String(path);
  if (value !== ROOT_AGENT_PATH && !value.startsWith(`${ROOT_AGENT_PATH}/`)) throw new AgentPathError('agent path must start with /root');
  if (value.endsWith('/')) throw new AgentPathError('agent path must not end with /');
  if (value.length > MAX_AGENT_PATH_LENGTH) throw new AgentPathError('agent path is too long');
  const segments = value.split('/').slice(2);
  if (segments.some((segment) => segment.length === 0)) throw new AgentPathError('agent path must not contain empty segments');
  segments.forEach(checkTaskName);
  return value;
}

/** The path of `name` directly beneath `parent`. */
export function childPath(parent: string, name: string): string {
  return checkAgentPath(`${checkAgentPath(parent)}/${checkTaskName(name)}`);
}

/** Whether `path` is exactly one level beneath `parent` (false for anything malformed). */
export function isImmediateChild(path: unknown, parent: string): boolean {
  try {
    const value = checkAgentPath(path);
    return value.startsWith(`${parent}/`) && !value.slice(parent.length + 1).includes('/');
  } catch {
    return false;
  }
}
