import type { ModelMessage } from 'ai';
import { InvocationError, isControlError } from '../error/control-errors.ts';
import { asBytes, base64ToBytes } from '../util/base64.ts';
import type { ArtifactLimits } from './artifact-limits.ts';
import { assertBatch } from './artifact-processor.ts';
import { extensionOf } from './artifact-store.ts';
import type { ArtifactEntry, ArtifactStore } from './artifact-store.ts';
import type { StoredArtifact } from '../content/stored-artifact.ts';

/**
 * Stores the images and documents of the run's input message (so filesystem
 * tools and code mode can read the same bytes); the model still gets the
 * original media. Unnamed ones are called `attachment-<n><ext>` (n counts the
 * message's blocks from 1). A failure is an `InvocationError` "Input
 * artifacts could not be prepared (NAME)".
 */
export async function storeInputAttachments(message: ModelMessage | undefined, store: ArtifactStore, limits: ArtifactLimits): Promise<StoredArtifact[]> {
  if (!message || message.role !== 'user' || typeof message.content === 'string') return [];
  const entries: ArtifactEntry[] = [];
  message.content.forEach((part, index) => {
    if (part.type === 'text') return;
    const data = part.type === 'image' ? part.image : part.data;
    const bytes = toBytes(data);
    if (!bytes) return;
    const mediaType = (part.mediaType ?? 'application/octet-stream').toLowerCase();
    const name = part.type === 'file' && part.filename ? part.filename : `attachment-${index + 1}${extensionOf(mediaType)}`;
    entries.push({ data: bytes, mediaType, name, metadata: { inputAttachment: true } });
  });
  if (entries.length === 0) return [];
  try {
    assertBatch(entries, limits);
    return await store.writeBatch(entries);
  } catch (error) {
    if (isControlError(error)) throw error;
    const name = (error as { name?: string } | undefined)?.name ?? 'Error';
    throw new InvocationError(`Input artifacts could not be prepared (${name})`, { cause: error });
  }
}

/** Inline bytes of a part (bytes, or base64 text); URLs and provider references are not stored. */
function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) return asBytes(data);
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'data') return toBytes((data as { data: unknown }).data);
  if (typeof data === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(data)) {
    try {
      return base64ToBytes(data);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
