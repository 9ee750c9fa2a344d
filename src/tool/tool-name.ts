import { ConfigurationError } from '../error/configuration-error.ts';

/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** What a model-facing tool name may contain. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Throws a `ConfigurationError` unless `name` is a model-facing tool name providers accept. */
export function assertToolName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) throw new ConfigurationError('Tool name is required');
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    throw new ConfigurationError(`Tool name cannot exceed ${MAX_TOOL_NAME_LENGTH} characters: ${name}`);
  }
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new ConfigurationError(`Tool name may contain only letters, numbers, underscores, and hyphens: ${name}`);
  }
}

/** Throws a `ConfigurationError` unless `description` is a non-empty string. */
export function assertToolDescription(description: unknown): asserts description is string {
  if (typeof description !== 'string' || description.trim().length === 0) {
    throw new ConfigurationError('Tool description is required');
  }
}
