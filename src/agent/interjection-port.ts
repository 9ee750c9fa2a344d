import type { UserModelMessage } from 'ai';

/** Interjections delivered at one model boundary. */
export interface InterjectionBatch {
  readonly interjectionIds: readonly string[];
  readonly batchKey: string | undefined;
  /** The user messages to append before the model call, one per interjection. */
  readonly messages: readonly UserModelMessage[];
  /** The metadata of the batch's last interjection that carried some. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * What the agent loop asks of a run's interjections at its model boundaries.
 * The loop knows only this interface: the queue behind it (`InterjectionQueue`)
 * is attached by `interject()` on first use, so a program that never
 * interjects does not bundle it.
 */
export interface InterjectionPort {
  /** The batch due at this boundary, if any. */
  deliver(): InterjectionBatch | undefined;
  /** Answers the delivered batch with the model response that followed it. */
  resolve(batch: InterjectionBatch, response: { text: string; toolCalls: boolean }): void;
  /** On a final answer: true (and closed) when nothing waits; false when the run must take another turn. */
  finish(): boolean;
  /** Ends the queue, rejecting what was not answered. */
  close(error?: unknown): void;
}
