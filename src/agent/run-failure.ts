import { ConfigurationError } from '../error/configuration-error.ts';
import { CancelledError, DeadlineExceededError } from '../error/control-errors.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import type { ErrorInfo, EventPayload, RunOutcome } from '../events/events.ts';
import { abortReason, isAbortError } from '../util/abort.ts';
import { toProviderError } from './provider-errors.ts';

/** Turns whatever ended the loop into the error the run reports. */
export function classify(error: unknown, signal: AbortSignal): unknown {
  if (DeadlineExceededError.isInstance(error) || CancelledError.isInstance(error)) return error;
  if (signal.aborted && (isAbortError(error) || error === signal.reason)) return abortReason(signal);
  return error;
}

/**
 * Runs a provider call; its failures (other than aborts and our own errors)
 * become `ProviderError`s, a context overflow `ContextWindowOverflowError`.
 */
export async function providerCall<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (GhostlightError.isInstance(error) || signal.aborted) throw error;
    throw toProviderError(error);
  }
}

/** The outcome an error gives a run: `partial` at the deadline, `cancelled` on abort, otherwise `failed`. */
export function outcomeOf(error: unknown): RunOutcome {
  if (DeadlineExceededError.isInstance(error)) return 'partial';
  if (CancelledError.isInstance(error)) return 'cancelled';
  return 'failed';
}

/** The client-safe description of an error: our protocol and control messages as they are, anything else as `response`. */
export function errorInfo(error: unknown, response: string): ErrorInfo {
  const name = GhostlightError.isInstance(error) ? error.name : 'Error';
  const exposed =
    CancelledError.isInstance(error) || DeadlineExceededError.isInstance(error) || ProtocolError.isInstance(error) || ConfigurationError.isInstance(error);
  return { name, message: exposed ? (error as Error).message : response };
}

/** The one terminal event of a run. */
export function terminalEvent(outcome: RunOutcome, response: string, output: unknown, info: ErrorInfo | undefined, cleanupFailed: boolean): EventPayload {
  const error = info ?? { name: 'Error', message: response };
  switch (outcome) {
    case 'completed':
      return { type: 'run-stop', outcome, response, output };
    case 'partial':
      return { type: 'run-partial', outcome, response, error };
    case 'cancelled':
      return { type: 'run-cancel', outcome, response: '', error };
    case 'failed':
    case 'waiting':
      return { type: 'run-error', outcome: 'failed', response, error, cleanupFailed };
  }
}

/**
 * A failure while resolving the run's tools (an MCP server that cannot be
 * reached or answers badly, a tool provider that throws): not bad
 * configuration, so the run ends `failed` with it as the cause instead of
 * throwing from `ask`.
 */
export class ToolResolutionFailure {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}
