import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { ProtocolError } from '../error/protocol-error.ts';

/** One server-sent event. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/**
 * Parses a `text/event-stream` body into events as bytes arrive, with
 * `eventsource-parser` (the parser AI SDK uses). Reading more than `maxBytes`
 * in total (or, with `perEvent`, since the last event) throws
 * `ProtocolError("MCP response exceeded N bytes")`. Stop iterating to cancel
 * the stream.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>, maxBytes: number, options: { perEvent?: boolean } = {}): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: SseEvent[] = [];
  // The last event id persists across events, as the SSE specification's "last event ID buffer" does.
  let lastId: string | undefined;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      if (message.id !== undefined) lastId = message.id;
      ready.push({ event: message.event || 'message', data: message.data, id: lastId });
    },
  });
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new ProtocolError(`MCP response exceeded ${maxBytes} bytes`);
      parser.feed(decoder.decode(value, { stream: true }));
      if (ready.length > 0 && options.perEvent) bytes = 0;
      while (ready.length > 0) yield ready.shift()!;
    }
    // Lenient at the end: a last event without its blank line is still delivered.
    parser.feed(`${decoder.decode()}\n\n`);
    while (ready.length > 0) yield ready.shift()!;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
