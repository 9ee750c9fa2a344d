export { UiMessageEncoder } from './ui-message-encoder';
export type { GhostlightMessageMetadata } from './ui-message-encoder';
export { toUiMessageStream } from './to-ui-message-stream';
