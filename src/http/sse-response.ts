/** One server-sent event. */
export interface SseFrame {
  readonly event?: string;
  readonly id?: string | number;
  readonly data: unknown;
}

/**
 * Streams `frames` as `text/event-stream`, one JSON `data:` line per frame.
 * When the client goes away the body is cancelled and `onCancel` runs (the
 * app aborts the run there).
 */
export function sseResponse(frames: AsyncIterable<SseFrame>, onCancel: () => void, headers: HeadersInit = {}): Response {
  const encoder = new TextEncoder();
  const iterator = frames[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      const { event, id, data } = next.value;
      let text = '';
      if (event !== undefined) text += `event: ${event}\n`;
      if (id !== undefined) text += `id: ${id}\n`;
      text += `data: ${JSON.stringify(data)}\n\n`;
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      onCancel();
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...Object.fromEntries(new Headers(headers)),
    },
  });
}
