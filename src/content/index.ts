export { documentBlock, imageBlock, textBlock, userMessage } from './content-blocks';
export type { Bytes, ContentBlock } from './content-blocks';
export { assertInputModalities, requiredModalities } from './input-modalities';
export { messagesFromJson, messagesToJson } from './message-json';
export { UnsupportedInputError } from './unsupported-input-error';
