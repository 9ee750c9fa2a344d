import { errorMarker, markerGuard } from '../error/ghostlight-error.ts';
import { ToolError } from '../tool/tool-error.ts';

/**
 * What a program did that a replay must repeat (JSON, kept in the session
 * while the program waits for approval): the seed and clock it started with,
 * each tool call it made, and each result the host delivered with how many
 * engine steps had run before it.
 */
export interface CodeJournal {
  readonly version: 1;
  readonly seed: number;
  readonly clock: number;
  readonly calls: Array<{ readonly id: number; readonly name: string; readonly args: string | null }>;
  readonly deliveries: Array<{ readonly at: number; readonly id: number; readonly ok: boolean; readonly payload: string | null }>;
  /** The call that waits for approval (its program number). */
  readonly suspended?: { readonly id: number };
}

/** How a replayed program continues at its suspended call: the answer. */
export interface CodeReplay {
  readonly journal: CodeJournal;
  readonly approved: boolean;
  /** The text the suspended call rejects with inside the program when it was denied. */
  readonly denial: string;
}

const suspensionMarker = errorMarker('CodeSuspension');
const replayMarker = errorMarker('CodeReplayError');

/**
 * A program reached a call that needs approval: it stops, and its journal
 * lets a later run replay it up to that call (internal control flow; the run
 * ends `waiting`).
 */
export class CodeSuspension extends Error {
  readonly [suspensionMarker] = true;
  override readonly name = 'CodeSuspension';
  readonly toolName: string;
  readonly input: unknown;
  readonly callNumber: number;
  /** The hash of the tool's contract when the program asked (`toolHash`). */
  readonly toolHash: string;
  /** Set once the program has stopped and its calls have settled. */
  journal: CodeJournal | undefined;
  /** The program's source (the replay runs it again), set with the journal. */
  source: string | undefined;

  constructor(toolName: string, input: unknown, callNumber: number, toolHash: string) {
    super(`The program waits for approval of ${toolName}`);
    this.toolName = toolName;
    this.input = input;
    this.callNumber = callNumber;
    this.toolHash = toolHash;
  }

  static isInstance = markerGuard<CodeSuspension>(suspensionMarker);
}

/**
 * A program did not repeat itself when replayed after an approval: its calls
 * depend on something the journal does not hold (see docs/long-running-runs.md,
 * "Programs that cannot be replayed"). The model sees this error as the
 * program's result; the suspended call does not run.
 */
export class CodeReplayError extends ToolError {
  readonly [replayMarker] = true;
  override readonly name = 'CodeReplayError';

  /** Whether `error` is a CodeReplayError. */
  static override isInstance = markerGuard<CodeReplayError>(replayMarker);
}
