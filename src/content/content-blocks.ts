import type { FilePart, TextPart, UserModelMessage } from 'ai';
import { InvocationError } from '../error/control-errors.ts';
import { asBytes } from '../util/base64.ts';

/** Bytes, as a Uint8Array (a Node Buffer is one) or an ArrayBuffer. */
export type Bytes = Uint8Array | ArrayBuffer;

/** A block of a user message: text, an image or a document (AI SDK parts, so they go to any provider as they are). */
export type ContentBlock = TextPart | FilePart;

/** A text block. */
export function textBlock(text: string): TextPart {
  if (typeof text !== 'string') throw new InvocationError('A text block needs text');
  return { type: 'text', text };
}

/**
 * An image block: the original bytes and their media type (`image/png`…),
 * optionally named. Check the size and the real file type of uploads first.
 *
 * @example
 * userMessage([textBlock('Describe the visible damage.'), imageBlock({ data: png, mediaType: 'image/png' })])
 */
export function imageBlock(options: { data: Bytes; mediaType: string; name?: string }): FilePart {
  const mediaType = checkMediaType(options.mediaType, 'An image block');
  if (!mediaType.startsWith('image/')) throw new InvocationError(`An image block needs an image media type, not ${mediaType}`);
  return { type: 'file', data: checkBytes(options.data, 'An image block'), mediaType, ...(options.name ? { filename: options.name } : {}) };
}

/**
 * A document block: the original bytes, their media type
 * (`application/pdf`, `text/csv`…) and a display name.
 *
 * @example
 * documentBlock({ data: pdf, mediaType: 'application/pdf', name: 'refund-guide.pdf' })
 */
export function documentBlock(options: { data: Bytes; mediaType: string; name: string }): FilePart {
  const mediaType = checkMediaType(options.mediaType, 'A document block');
  if (typeof options.name !== 'string' || options.name.length === 0) throw new InvocationError('A document block needs a name');
  return { type: 'file', data: checkBytes(options.data, 'A document block'), mediaType, filename: options.name };
}

/** A user message from text and blocks (strings become text blocks). */
export function userMessage(content: string | ReadonlyArray<string | ContentBlock>): UserModelMessage {
  if (typeof content === 'string') return { role: 'user', content };
  return { role: 'user', content: content.map((block) => (typeof block === 'string' ? textBlock(block) : block)) };
}

function checkMediaType(mediaType: unknown, what: string): string {
  if (typeof mediaType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) throw new InvocationError(`${what} needs a media type such as image/png`);
  return mediaType.toLowerCase();
}

function checkBytes(data: unknown, what: string): Uint8Array {
  if (!(data instanceof Uint8Array) && !(data instanceof ArrayBuffer)) throw new InvocationError(`${what} needs its bytes (a Uint8Array or ArrayBuffer)`);
  return asBytes(data);
}
