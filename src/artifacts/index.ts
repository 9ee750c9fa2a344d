/**
 * Artifacts as a capability: input media, tool artifacts and oversized tool
 * values stored per run and shown to the model within a presentation budget.
 * Creating artifacts (`createArtifact`, `toolResult({ artifacts })`) is core.
 *
 * @module ghostlight/artifacts
 */
export { artifacts } from './artifacts-capability.ts';
export type { ArtifactOptions } from './artifacts-capability.ts';
export { DEFAULT_ARTIFACT_LIMITS } from './artifact-limits.ts';
export type { ArtifactLimits } from './artifact-limits.ts';
export type { ArtifactStorage } from './artifact-storage.ts';
export { ArtifactStore } from './artifact-store.ts';
export type { ArtifactEntry } from './artifact-store.ts';
export { MemoryArtifactStorage } from './memory-artifact-storage.ts';
export type { ArtifactResolver } from './resolve-artifacts.ts';
export { WorkspaceArtifactStorage, isArtifactWorkspace } from './workspace-artifact-storage.ts';
export type { ArtifactWorkspace } from './workspace-artifact-storage.ts';
