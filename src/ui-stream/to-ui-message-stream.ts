import type { UIMessageChunk } from 'ai';
import type { GhostlightEvent } from '../events/events.ts';
import { UiMessageEncoder } from './ui-message-encoder.ts';
import type { GhostlightMessageMetadata } from './ui-message-encoder.ts';

/**
 * A `ReadableStream` of UI message chunks for one run, ready for
 * `uiMessageStreamResponse` (or AI SDK's `createUIMessageStreamResponse`). Cancelling the stream (the client went
 * away) calls `onCancel`, e.g. to abort the run. A source that fails or
 * ends without a terminal event ends the stream with `safeMessage`.
 *
 * @example
 * return uiMessageStreamResponse(toUiMessageStream(agent.stream(input)));
 */
export function toUiMessageStream(
  events: AsyncIterable<GhostlightEvent>,
  options: { messageId?: string | undefined; safeMessage?: string | undefined; onCancel?: (() => void) | undefined } = {},
): ReadableStream<UIMessageChunk<GhostlightMessageMetadata>> {
  const encoder = new UiMessageEncoder({ messageId: options.messageId });
  const iterator = events[Symbol.asyncIterator]();
  const safeMessage = options.safeMessage ?? 'The run could not start.';
  return new ReadableStream({
    async pull(controller) {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            for (const chunk of encoder.fail(safeMessage)) controller.enqueue(chunk);
            controller.close();
            return;
          }
          const chunks = encoder.encode(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (encoder.ended) {
            controller.close();
            await iterator.return?.();
            return;
          }
          if (chunks.length > 0) return;
        }
      } catch {
        for (const chunk of encoder.fail(safeMessage)) controller.enqueue(chunk);
        controller.close();
      }
    },
    async cancel() {
      options.onCancel?.();
      await iterator.return?.();
    },
  });
}
