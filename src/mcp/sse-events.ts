import { ProtocolError } from '../error/protocol-error.ts';

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
  const field = (line: string) => {
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(text);
    else if (name === 'event') event = text;
    else if (name === 'id') id = text;
  };
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
        } else field(line);
      }
    }
    // Lenient at the end: a last event without its blank line is still delivered.
    if (buffer !== '') field(buffer);
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
