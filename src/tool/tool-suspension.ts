import type { JsonValue } from '../util/json.ts';

const suspensionMarker = Symbol.for('ghostlight.tool-suspension');

/**
 * What a tool returns to stop its run for a person's approval of something
 * it is about to do (code mode returns one when a program calls a tool that
 * needs approval): the run ends `waiting` with `toolName` and `input` as the
 * pending call, and when it is answered the same call runs again with
 * `binding.resume` = `{ approved, reason, state }`.
 */
export interface ToolSuspension {
  readonly [suspensionMarker]: true;
  /** The call a person approves (shown as the pending call). */
  readonly toolName: string;
  readonly input: JsonValue;
  /** The hash of that tool's contract, so a changed tool does not run on an old approval. */
  readonly toolHash: string;
  /** What the tool needs to continue (JSON; kept in the session). */
  readonly state: JsonValue;
}

/** How a suspended call is continued: the answer, and the state it suspended with. */
export interface ToolResume {
  readonly approved: boolean;
  readonly reason?: string | undefined;
  readonly state: JsonValue;
}

/** Makes a {@link ToolSuspension}. */
export function suspendForApproval(fields: Omit<ToolSuspension, typeof suspensionMarker>): ToolSuspension {
  return Object.freeze({ [suspensionMarker]: true as const, ...fields });
}

/** Whether `value` is a {@link ToolSuspension}. */
export function isToolSuspension(value: unknown): value is ToolSuspension {
  return typeof value === 'object' && value !== null && suspensionMarker in value;
}
