const encoder = new TextEncoder();

/** A response whose body is `lines`, one per line (JSON lines between a Worker and its run objects). Pulled; `onCancel` when the reader leaves. */
export function ndjsonResponse(lines: AsyncIterator<string>, onCancel: () => void = () => undefined): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${next.value}\n`));
    },
    async cancel() {
      onCancel();
      await lines.return?.(undefined);
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } });
}

/** The JSON values of a JSON-lines body, in order; leaving early cancels the body. */
export async function* readNdjson(response: Response): AsyncGenerator<unknown> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line.length > 0) yield JSON.parse(line);
      }
    }
    if (buffer.trim().length > 0) yield JSON.parse(buffer);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
