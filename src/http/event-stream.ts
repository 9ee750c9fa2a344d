/** One server-sent event: `data` is sent as JSON, or as it is when `raw`. */
export interface SseFrame {
  readonly event?: string | undefined;
  readonly id?: string | number | undefined;
  readonly data: unknown;
  readonly raw?: boolean | undefined;
}

/** How an event stream is written. */
export interface EventStreamOptions {
  /** Runs once when the client goes away before the stream ended (the app aborts the run there). */
  readonly onCancel: () => void;
  /** Write an SSE comment after this many milliseconds without a frame. */
  readonly heartbeatMs: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(': keep-alive\n\n');

/**
 * Streams `frames` as `text/event-stream`, one `data:` line per frame. While
 * no frame is ready it writes a comment (`: keep-alive`) every `heartbeatMs`:
 * a runtime that notices a departed client only when it writes (Workers)
 * notices within that time, cancels the body, and `onCancel` runs. Pulled:
 * nothing is produced faster than the client reads.
 */
export function eventStream(frames: AsyncIterator<SseFrame>, options: EventStreamOptions): Response {
  let pending: Promise<IteratorResult<SseFrame>> | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pending ??= frames.next();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const beat = new Promise<'beat'>((resolve) => (timer = setTimeout(() => resolve('beat'), options.heartbeatMs)));
      const next = await Promise.race([pending, beat]).finally(() => clearTimeout(timer));
      if (next === 'beat') return controller.enqueue(HEARTBEAT);
      pending = undefined;
      if (next.done) return controller.close();
      const { event, id, data, raw } = next.value;
      const text = `${event !== undefined ? `event: ${event}\n` : ''}${id !== undefined ? `id: ${id}\n` : ''}data: ${raw ? String(data) : JSON.stringify(data)}\n\n`;
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      if (cancelled) return;
      cancelled = true;
      options.onCancel();
      await frames.return?.(undefined);
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', ...options.headers },
  });
}
