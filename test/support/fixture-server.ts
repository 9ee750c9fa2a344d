import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded response: a JSON body, or SSE `data:` payloads (one JSON text each). */
export type FixtureResponse =
  | { kind: 'json'; body: string; status?: number }
  | { kind: 'sse'; events: string[]; done?: boolean };

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * A loopback HTTP server (127.0.0.1, a random port) that replays recorded
 * provider responses in order, one per request, and records every request
 * body so tests can assert what the loop sent back. Real provider packages
 * point their `baseURL` at it.
 */
export async function startFixtureServer(responses: FixtureResponse[]): Promise<{
  baseURL: string;
  requests: RecordedRequest[];
  /** The request bodies alone, in order (a live array). */
  bodies: unknown[];
  close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const bodies: unknown[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body });
      bodies.push(body);
      const fixture = responses[next++];
      if (!fixture) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `fixture server has no response for request ${next}` } }));
        return;
      }
      if (fixture.kind === 'json') {
        response.writeHead(fixture.status ?? 200, { 'content-type': 'application/json' });
        response.end(fixture.body);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const event of fixture.events) response.write(`data: ${event}\n\n`);
      if (fixture.done !== false) response.write('data: [DONE]\n\n');
      response.end();
    });
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies,
    close: () => new Promise<void>((resolveClose) => server.close(() => resolveClose())),
  };
}

/** Splits a `.chunks.txt` recording into SSE events (non-empty lines). */
export function chunkLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim().length > 0);
}

/** Splits a recording of several consecutive streams at each line matching `startsWith`. */
export function splitStreams(lines: string[], isStart: (line: string) => boolean): string[][] {
  const streams: string[][] = [];
  for (const line of lines) {
    if (isStart(line) || streams.length === 0) streams.push([]);
    streams.at(-1)!.push(line);
  }
  return streams;
}
