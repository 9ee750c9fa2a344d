import type { ModelMessage } from 'ai';
import type { AsyncScope } from '../lifetime/async-scope.ts';
import type { RunHandle, RunState, ToolBinding } from '../tool/tool-binding.ts';
import { safeMessage } from './safe-message.ts';

/** What `prepareRun` sees: the run after its capabilities opened their resources, before its tools exist. */
export interface PrepareRunContext {
  readonly run: RunHandle;
  /** The binding tools will get (with `workspace`, `sandbox`… when those capabilities are declared). */
  readonly binding: ToolBinding;
  /** The run's mutable working state (a session's state already restored). */
  readonly state: RunState;
  /** Registers resources and cleanups: closed with the run's own, in reverse order, whatever the outcome. */
  readonly scope: Pick<AsyncScope, 'own' | 'defer'>;
}

/** What `sessionHistory` sees. */
export interface SessionHistoryContext {
  readonly run: RunHandle;
  /** The history a session store restored (empty for a new session or a run without one). */
  readonly stored: readonly ModelMessage[];
  /** The history the invocation supplied (`history`). */
  readonly fallback: readonly ModelMessage[];
}

/**
 * Application-wide hooks around runs (LittleGhost's runtime hooks), listed in
 * `AskOptions.runtimeHooks` (the application's, first) and the agent's
 * `runtimeHooks`, and called in that order. Implement only what you need.
 *
 * @example
 * const tenantHooks: RuntimeHook = {
 *   prepareRun: ({ run, scope }) => void scope.own(openTenantConnection(run.invocation.actorId)),
 *   errorMessage: (error) => (isBillingError(error) ? 'Your plan does not cover this request.' : undefined),
 * };
 */
export interface RuntimeHook {
  /** Prepares a run: register run-scoped resources on `scope`. Throwing fails the run before it starts (`ask` throws). */
  prepareRun?(context: PrepareRunContext): void | Promise<void>;
  /**
   * Chooses the history the run starts from; `undefined` defers to later
   * hooks and the default (the stored history when there is one, else the
   * invocation's).
   */
  sessionHistory?(context: SessionHistoryContext): readonly ModelMessage[] | undefined | Promise<readonly ModelMessage[] | undefined>;
  /**
   * The caller-safe message of a failed run, or `undefined` to defer to later
   * hooks and the default safe messages. Never expose secrets or internal
   * exception text. A hook that throws is skipped.
   */
  errorMessage?(error: unknown, run: RunHandle): string | undefined | Promise<string | undefined>;
}

/** The history the run starts from: the first hook's choice, else the stored history, else the invocation's. */
export async function chooseHistory(hooks: readonly RuntimeHook[], context: SessionHistoryContext): Promise<readonly ModelMessage[]> {
  for (const hook of hooks) {
    const chosen = await hook.sessionHistory?.(context);
    if (chosen !== undefined) return chosen;
  }
  return context.stored.length > 0 ? context.stored : context.fallback;
}

/** The caller-safe message of a failed run: the first hook's message, else the default safe message. */
export async function errorMessageFor(hooks: readonly RuntimeHook[], error: unknown, run: RunHandle): Promise<string> {
  for (const hook of hooks) {
    if (!hook.errorMessage) continue;
    try {
      const message = await hook.errorMessage(error, run);
      if (typeof message === 'string' && message.length > 0) return message;
    } catch {
      // A failing hook must not turn a failed run into a thrown error; the default message stands.
    }
  }
  return safeMessage(error);
}
