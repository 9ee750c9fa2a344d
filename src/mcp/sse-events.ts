import { ProtocolError } from '../error/protocol-error';

/** One server-sent event. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/**
 * Parses a `text/event-stream` body into events as bytes arrive. Reading more
 * than `maxBytes` in total (or, with `perEvent`, within one event) throws
 * `ProtocolError("MCP response exceeded N bytes")`. Stop iterating to cancel
 * the stream.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>, maxBytes: number, options: { perEvent?: boolean } = {}): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let bytes = 0;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new ProtocolError(`MCP response exceeded ${maxBytes} bytes`);
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          if (options.perEvent) bytes = buffer.length;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(text);
        else if (field === 'event') event = text;
        else if (field === 'id') id = text;
      }
    }
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
