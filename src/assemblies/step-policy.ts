import { ConfigurationError } from '../error/configuration-error.ts';
import { CancelledError, CleanupError, DeadlineExceededError } from '../error/control-errors.ts';

/**
 * Which failures a step retries: a predicate, or error names (`'ProviderError'`;
 * a name matches the error's `name` and, for Ghostlight errors, its ancestors').
 */
export type RetryOn = ((error: unknown) => boolean) | readonly string[];

/** How one step runs (SPEC A15 "Step policies"); Workflow invokes, Swarm members and Graph nodes take them. */
export interface StepPolicy {
  /** Milliseconds the step may take (positive, finite). Cooperative: the child is given that deadline; then `AssemblyStepTimeoutError`. */
  readonly timeout?: number | undefined;
  /** How many times a failed step is repeated (default 0). More than 0 needs `retryOn`. */
  readonly retries?: number | undefined;
  /** Which failures are retried. Cancellation and cleanup failures never are. */
  readonly retryOn?: RetryOn | undefined;
  /** Milliseconds between attempts (default 0). */
  readonly retryDelay?: number | undefined;
}

/** A checked step policy. */
export interface ResolvedStepPolicy {
  readonly timeout: number | undefined;
  readonly retries: number;
  readonly retryOn: RetryOn;
  readonly retryDelay: number;
}

/** Checks a step policy (`ConfigurationError` for any unusable value). */
export function resolveStepPolicy(policy: StepPolicy, where: string): ResolvedStepPolicy {
  const retries = policy.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new ConfigurationError(`${where}: retries must be at least 0`);
  const retryOn = policy.retryOn ?? [];
  if (typeof retryOn !== 'function' && !(Array.isArray(retryOn) && retryOn.every((name) => typeof name === 'string' && name.length > 0))) {
    throw new ConfigurationError(`${where}: retryOn must be a predicate or a list of error names`);
  }
  if (retries > 0 && Array.isArray(retryOn) && retryOn.length === 0) {
    throw new ConfigurationError(`${where}: retryOn is required when retries is greater than 0`);
  }
  const { timeout } = policy;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))) {
    throw new ConfigurationError(`${where}: timeout must be positive`);
  }
  const retryDelay = policy.retryDelay ?? 0;
  if (!(typeof retryDelay === 'number' && retryDelay >= 0 && Number.isFinite(retryDelay))) {
    throw new ConfigurationError(`${where}: retryDelay must be non-negative`);
  }
  return Object.freeze({ timeout, retries, retryOn: Array.isArray(retryOn) ? Object.freeze([...retryOn]) : retryOn, retryDelay });
}

/** The policy keys, for definitions that mix them with their own. */
export const STEP_POLICY_KEYS = ['timeout', 'retries', 'retryOn', 'retryDelay'] as const;

/** Whether the failed attempt `attempt` (from 1) is repeated. */
export function shouldRetry(error: unknown, policy: ResolvedStepPolicy, attempt: number): boolean {
  if (attempt > policy.retries) return false;
  if (CancelledError.isInstance(error) || CleanupError.isInstance(error) || DeadlineExceededError.isInstance(error)) return false;
  return matchesErrors(error, policy.retryOn);
}

/** Whether `error` matches a predicate or one of the error names (a Ghostlight error matches its ancestors' names too). */
export function matchesErrors(error: unknown, on: RetryOn): boolean {
  if (typeof on === 'function') return on(error) === true;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return on.some((wanted) => wanted === name || (typeof error === 'object' && error !== null && Symbol.for(`ghostlight.error.${wanted}`) in error));
}
