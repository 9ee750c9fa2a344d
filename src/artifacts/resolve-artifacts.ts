import type { RunHandle } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import { throwIfAborted } from '../util/abort.ts';
import { createArtifact, isArtifact } from '../content/artifact.ts';
import type { Artifact, DeferredArtifact, InlineArtifact } from '../content/artifact.ts';

/**
 * Loads a deferred artifact for the run: bytes (or text, stored as UTF-8),
 * an inline artifact with its final media type, or `null`/`undefined` when
 * the file is no longer available (it then stays deferred and is never shown
 * to the model). Check the reference against the run's identity
 * (`run.invocation.actorId`): a reference is data, not permission.
 */
export type ArtifactResolver = (
  artifact: DeferredArtifact,
  context: { readonly run: RunHandle },
) => Uint8Array | string | InlineArtifact | null | undefined | Promise<Uint8Array | string | InlineArtifact | null | undefined>;

/** Resolves the deferred artifacts it can, in order; storage limits apply afterwards. */
export async function resolveArtifacts(
  artifacts: readonly Artifact[],
  resolver: ArtifactResolver | undefined,
  run: RunHandle,
  signal: AbortSignal,
): Promise<Artifact[]> {
  const resolved: Artifact[] = [];
  for (const artifact of artifacts) {
    throwIfAborted(signal);
    if (artifact.kind !== 'deferred' || !resolver) {
      resolved.push(artifact);
      continue;
    }
    const value = await resolver(artifact, { run });
    throwIfAborted(signal);
    if (value === null || value === undefined) resolved.push(artifact);
    else if (typeof value === 'string' || value instanceof Uint8Array) {
      resolved.push(createArtifact({ data: value, mediaType: artifact.mediaType, name: artifact.name, metadata: artifact.metadata }));
    } else if (isArtifact(value) && value.kind === 'inline') resolved.push(value);
    else throw new ToolError('Artifact resolver must return bytes, an Artifact, or null');
  }
  return resolved;
}
