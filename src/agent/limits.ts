import { ConfigurationError } from '../error/configuration-error.ts';

/** Per-run limits of an agent. */
export interface AgentLimits {
  /** Model turns per run (default 100). Past it the run fails with `ProtocolError`. */
  maxTurns?: number;
  /** Tool calls per run, code-mode calls included (default 1,000). Past it the run fails with `ProtocolError`. */
  maxToolCalls?: number;
  /** Approximate tokens (4 bytes each) of one tool result shown to the model (default 10,000); longer results lose their middle. */
  maxToolResultTokens?: number;
  /** Tool calls of one model response that run at once (default 8). */
  toolConcurrency?: number;
}

/** Limits with every default filled in. */
export type ResolvedLimits = Required<AgentLimits>;

/** The defaults, as the seeds set them. */
export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxTurns: 100,
  maxToolCalls: 1_000,
  maxToolResultTokens: 10_000,
  toolConcurrency: 8,
});

/** Fills defaults and checks every limit is an integer of at least 1. */
export function resolveLimits(...layers: ReadonlyArray<AgentLimits | undefined>): ResolvedLimits {
  const limits: ResolvedLimits = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(layer) as Array<keyof AgentLimits>) {
      if (!(key in DEFAULT_LIMITS)) throw new ConfigurationError(`Unknown agent limit: ${key}`);
      const value = layer[key];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`${key} must be at least 1`);
      limits[key] = value;
    }
  }
  return limits;
}
