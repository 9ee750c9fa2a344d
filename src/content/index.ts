export { documentBlock, imageBlock, textBlock, userMessage } from './content-blocks.ts';
export type { Bytes, ContentBlock } from './content-blocks.ts';
export { assertInputModalities, requiredModalities } from './input-modalities.ts';
export { messagesFromJson, messagesToJson } from './message-json.ts';
export { UnsupportedInputError } from './unsupported-input-error.ts';
export { createArtifact, deferredArtifact, isArtifact } from './artifact.ts';
export type { Artifact, DeferredArtifact, InlineArtifact } from './artifact.ts';
export type { StoredArtifact } from './stored-artifact.ts';
