const MIB = 1024 * 1024;

/** The limits of a run's artifacts. */
export interface ArtifactLimits {
  /** Bytes of one artifact. */
  readonly maxArtifactBytes: number;
  /** Bytes of all the artifacts of a run. */
  readonly maxTotalBytes: number;
  /** Artifacts of a run. */
  readonly maxArtifacts: number;
  /** Artifacts of one batch (one tool result, or one input message). */
  readonly maxBatchArtifacts: number;
  /** Bytes of one batch. */
  readonly maxBatchBytes: number;
  /** Media blocks shown to the model in one turn. */
  readonly maxPresentedBlocks: number;
  /** Bytes of the media shown to the model in one turn. */
  readonly maxPresentedBytes: number;
  /** Approximate tokens (4 bytes each) above which a successful tool value is stored and previewed. */
  readonly spoolThresholdTokens: number;
  /** Approximate tokens of the preview the model gets of a stored value. */
  readonly previewTokens: number;
}

/**
 * Defaults sized for a 128 MB Cloudflare Worker isolate, where the run's
 * artifacts live in memory next to everything else: 8 MiB per artifact,
 * 32 MiB and 100 artifacts per run, batches of at most 20 items and 32 MiB,
 * and per model turn at most 4 media blocks and 8 MiB (about 10.7 MB once
 * base64-encoded into the provider request). LittleGhost's are 32 MiB per
 * artifact and 64 MiB per run; raise them where memory allows.
 */
export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = Object.freeze({
  maxArtifactBytes: 8 * MIB,
  maxTotalBytes: 32 * MIB,
  maxArtifacts: 100,
  maxBatchArtifacts: 20,
  maxBatchBytes: 32 * MIB,
  maxPresentedBlocks: 4,
  maxPresentedBytes: 8 * MIB,
  spoolThresholdTokens: 10_000,
  previewTokens: 2_000,
});

/** Fills the defaults; every limit must be a positive integer. */
export function resolveArtifactLimits(overrides: Partial<ArtifactLimits> | undefined, invalid: (message: string) => Error): ArtifactLimits {
  const limits = { ...DEFAULT_ARTIFACT_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in DEFAULT_ARTIFACT_LIMITS)) throw invalid(`Unknown artifact limit: ${key}`);
    if (!Number.isInteger(value) || (value as number) < 1) throw invalid(`${key} must be a positive integer`);
  }
  return Object.freeze(limits);
}
