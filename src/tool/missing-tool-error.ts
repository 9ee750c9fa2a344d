import { ConfigurationError } from '../error/configuration-error.ts';
import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const missingToolMarker = errorMarker('MissingToolError');

/**
 * An agent or run names a tool the run's tool registry does not have (the
 * seed's `WorkflowMissingToolError`). Raised while the run is prepared, so
 * the run never starts: no model call, no tool call.
 *
 * @example
 * await agent.ask('…', { toolRegistry }); // rejects with MissingToolError when a named tool is absent
 */
export class MissingToolError extends ConfigurationError {
  readonly [missingToolMarker] = true;
  override readonly name: string = 'MissingToolError';
  /** The tool id that could not be found. */
  readonly toolId: string;

  constructor(toolId: string, options: { message?: string } = {}) {
    super(options.message ?? `Tool ${toolId} is not in the run's tool registry`);
    this.toolId = toolId;
  }

  /** Whether `error` is a MissingToolError. */
  static override isInstance = markerGuard<MissingToolError>(missingToolMarker);
}
