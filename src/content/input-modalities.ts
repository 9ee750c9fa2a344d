import type { ModelMessage } from 'ai';
import type { InputModality, ModelCapabilities } from '../model/model-capabilities.ts';
import { isPlainObject } from '../util/json.ts';
import { UnsupportedInputError } from './unsupported-input-error.ts';

/**
 * The modalities beyond text that `messages` need: `image` for images, `pdf`
 * for PDF documents, `file` for other documents, `audio`, `video`. Looks at
 * user content and tool-result content (artifacts presented to the model).
 */
export function requiredModalities(messages: readonly ModelMessage[]): Set<InputModality> {
  const required = new Set<InputModality>();
  const visit = (part: unknown) => {
    if (!isPlainObject(part) || typeof part.type !== 'string') return;
    const modality = modalityOf(part.type, typeof part.mediaType === 'string' ? part.mediaType : undefined);
    if (modality) required.add(modality);
  };
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      visit(part);
      if (part.type === 'tool-result' && part.output.type === 'content') part.output.value.forEach(visit);
    }
  }
  return required;
}

/**
 * Fails before the provider call when the model's advertised input
 * modalities lack one the messages need (a PDF is accepted by a `file`
 * model). Models with unknown modalities are not checked.
 */
export function assertInputModalities(messages: readonly ModelMessage[], capabilities: ModelCapabilities): void {
  const available = capabilities.inputModalities;
  if (!available) return;
  const missing = [...requiredModalities(messages)].filter(
    (modality) => !available.includes(modality) && !(modality === 'pdf' && available.includes('file')),
  );
  if (missing.length === 0) return;
  throw new UnsupportedInputError(
    `The selected model does not support ${missing.join(' and ')} attachments. Choose a compatible model or remove those attachments.`,
  );
}

function modalityOf(type: string, mediaType: string | undefined): InputModality | undefined {
  if (type === 'image' || type.startsWith('image-')) return 'image';
  if (type !== 'file' && type !== 'media' && !type.startsWith('file-')) return undefined;
  const media = (mediaType ?? '').toLowerCase();
  if (media === 'image' || media.startsWith('image/')) return 'image';
  if (media === 'application/pdf') return 'pdf';
  if (media === 'audio' || media.startsWith('audio/')) return 'audio';
  if (media === 'video' || media.startsWith('video/')) return 'video';
  return 'file';
}
