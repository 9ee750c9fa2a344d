/**
 * The AI SDK UI-message stream encoder of a run's event log (for `useChat`).
 *
 * @module ghostlight/ui-stream
 */
export { UiMessageEncoder } from './ui-message-encoder.ts';
export type { GhostlightMessageMetadata } from './ui-message-encoder.ts';
export { toUiMessageStream } from './to-ui-message-stream.ts';
export { UI_MESSAGE_STREAM_HEADERS, uiMessageStreamResponse } from './ui-message-stream-response.ts';
