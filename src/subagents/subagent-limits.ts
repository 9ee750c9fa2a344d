import { ConfigurationError } from '../error/configuration-error.ts';

/** The bounds of one run's subagents (SPEC A14). Each is checked when `subagents()` is called. */
export interface SubagentLimits {
  /** Child turns running at once, across every identity (default 8). */
  maxConcurrent: number;
  /** Identities one run may spawn (default 20). Identities restored from earlier runs do not count. */
  maxIdentities: number;
  /** Child turns one run may queue in total, spawns included (default 100). */
  maxTurns: number;
  /** Turns queued behind one identity's current turn, and interjections into one turn (default 8). */
  maxQueuedTurns: number;
  /** The longest task, message or interjection, in characters (default 50,000). */
  maxMessageChars: number;
  /** The longest response returned to the parent, in characters (default 100,000; longer text is truncated). */
  maxResponseChars: number;
  /** How long one `wait_for_subagents` call watches before answering `still_working` (default 30 s). */
  waitTimeoutMs: number;
  /** How long closing waits for children to stop before reporting a cleanup failure (default 5 s). */
  closeTimeoutMs: number;
}

/** The defaults of {@link SubagentLimits}. */
export const DEFAULT_SUBAGENT_LIMITS: Readonly<SubagentLimits> = Object.freeze({
  maxConcurrent: 8,
  maxIdentities: 20,
  maxTurns: 100,
  maxQueuedTurns: 8,
  maxMessageChars: 50_000,
  maxResponseChars: 100_000,
  waitTimeoutMs: 30_000,
  closeTimeoutMs: 5_000,
});

const COUNTS = ['maxConcurrent', 'maxIdentities', 'maxTurns', 'maxQueuedTurns', 'maxMessageChars', 'maxResponseChars'] as const;

/** The defaults with `overrides` applied; a value out of range or an unknown key is a `ConfigurationError`. */
export function resolveSubagentLimits(overrides: Partial<SubagentLimits> | undefined): SubagentLimits {
  const limits = { ...DEFAULT_SUBAGENT_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) continue;
    if (!(key in limits)) throw new ConfigurationError(`Unknown subagent limit: ${key}`);
    (limits as Record<string, number>)[key] = value as number;
  }
  for (const key of COUNTS) {
    if (!Number.isInteger(limits[key]) || limits[key] < 1) throw new ConfigurationError(`${key} must be an integer of at least 1`);
  }
  if (typeof limits.waitTimeoutMs !== 'number' || !Number.isFinite(limits.waitTimeoutMs) || limits.waitTimeoutMs <= 0) {
    throw new ConfigurationError('waitTimeoutMs must be a positive finite number');
  }
  if (typeof limits.closeTimeoutMs !== 'number' || !Number.isFinite(limits.closeTimeoutMs) || limits.closeTimeoutMs < 0) {
    throw new ConfigurationError('closeTimeoutMs must be a finite number of at least 0');
  }
  return limits;
}
