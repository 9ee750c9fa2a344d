export { createArtifact, deferredArtifact, isArtifact } from './artifact';
export type { Artifact, DeferredArtifact, InlineArtifact } from './artifact';
