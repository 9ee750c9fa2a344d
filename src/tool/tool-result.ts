import type { FilePart, TextPart } from 'ai';
import type { Artifact } from '../content/artifact.ts';
import { isArtifact } from '../content/artifact.ts';
import type { ToolSuspension } from './tool-suspension.ts';

const toolResultMarker = Symbol.for('ghostlight.tool-result');

/** A tool's value together with the files or media it produced. */
export interface ToolResult<VALUE = unknown> {
  readonly [toolResultMarker]: true;
  /** The value application callers and code mode receive. */
  readonly value: VALUE;
  /** Files or media produced by the tool. */
  readonly artifacts: readonly Artifact[];
}

/**
 * Returns a value together with artifacts from a tool's `execute`. Tools
 * without artifacts return their value directly.
 *
 * @example
 * return toolResult({ value: { rows: 3 }, artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] });
 */
export function toolResult<VALUE>(options: { value: VALUE; artifacts?: readonly Artifact[] }): ToolResult<VALUE> {
  const artifacts = options.artifacts ?? [];
  if (!artifacts.every(isArtifact)) throw new TypeError('toolResult artifacts must be created with createArtifact or deferredArtifact');
  return Object.freeze({ [toolResultMarker]: true as const, value: options.value, artifacts: Object.freeze([...artifacts]) });
}

/** Whether `value` was made by {@link toolResult}. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && toolResultMarker in value;
}

/**
 * The normalised outcome of one tool call: what the model sees (`content`),
 * what the application and code mode get (`value`), and how it went.
 */
export interface ToolCallResult {
  /** The call's id. */
  readonly toolCallId: string;
  /** The tool's name, as the model called it. */
  readonly toolName: string;
  /** The arguments as the model (or program) sent them. */
  readonly input: unknown;
  /** Whether the call succeeded. */
  readonly status: 'success' | 'error';
  /** The tool's value (successful calls); the same reference the tool returned. */
  readonly value: unknown;
  /** The model-visible text: the value serialised, or the error message. */
  readonly content: string;
  /** The original error of a failed call (a `ToolError`, or the hidden exception). */
  readonly error?: unknown;
  /** Files or media produced by the call (stored ones carry their reference once artifacts are enabled). */
  readonly artifacts: readonly Artifact[];
  /** Media the model sees with this result (artifact images, PDFs, text documents), sent in a transient message after the tool results. */
  readonly presentation?: readonly (TextPart | FilePart)[];
  /** Who made the call. */
  readonly caller: 'model' | 'code' | 'application';
  /** Set when the tool suspended its run for approval (`suspendForApproval`); the run ends `waiting`. */
  readonly suspended?: ToolSuspension | undefined;
}
