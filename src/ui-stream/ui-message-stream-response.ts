/** The headers AI SDK's UI clients (`useChat`'s default transport) expect on a UI message stream. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'x-vercel-ai-ui-message-stream': 'v1',
});

/**
 * A `Response` that streams UI message chunks the way AI SDK's
 * `createUIMessageStreamResponse` does (one `data:` JSON line per chunk, then
 * `data: [DONE]`), without bringing AI SDK's UI runtime into the bundle.
 * Cancelling the response body (the client went away) cancels `stream`.
 *
 * @example
 * return uiMessageStreamResponse(toUiMessageStream(agent.stream(input), { onCancel: () => controller.abort() }));
 */
export function uiMessageStreamResponse(stream: ReadableStream<unknown>, init: { headers?: HeadersInit; status?: number } = {}): Response {
  const encoder = new TextEncoder();
  const body = stream.pipeThrough(
    new TransformStream<unknown, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
  return new Response(body, {
    status: init.status ?? 200,
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...Object.fromEntries(new Headers(init.headers)) },
  });
}
