import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Where the recorded provider responses live (REALWORLD.md). */
export const FIXTURES = join(import.meta.dirname, '../../../shared/realworld/provider-fixtures');

/** Whether the fixtures are present; warns visibly when they are not. */
export function fixturesPresent(): boolean {
  if (existsSync(FIXTURES)) return true;
  console.warn(`[skip] ${FIXTURES} is missing: tests replaying recorded provider responses are skipped`);
  return false;
}

/** One recorded response: an SSE stream (`chunks`) or a JSON body with a status. */
export type Recording = { chunks: string[] } | { json: string; status: number };

/** Reads `NAME.chunks.txt` as one stream, or split into several at each `splitAt` line. */
export function recordedStreams(path: string, splitAt?: string): Recording[] {
  const lines = readFileSync(join(FIXTURES, path), 'utf8').split('\n').filter((line) => line.trim() !== '');
  if (!splitAt) return [{ chunks: lines }];
  const streams: string[][] = [];
  for (const line of lines) {
    if (line.includes(splitAt) || streams.length === 0) streams.push([]);
    streams.at(-1)!.push(line);
  }
  return streams.map((chunks) => ({ chunks }));
}

/** Reads `NAME.json` as a response body with `status`. */
export function recordedJson(path: string, status: number): Recording {
  return { json: readFileSync(join(FIXTURES, path), 'utf8'), status };
}

/**
 * A loopback HTTP server that answers request n with recording n, the way
 * the real provider did, so the real provider packages parse real bytes.
 * Records every request body.
 */
export async function serveRecordings(recordings: Recording[]): Promise<{ baseURL: string; requests: unknown[]; close: () => Promise<void> }> {
  const requests: unknown[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests.push(body ? JSON.parse(body) : undefined);
      const recording = recordings[next++];
      if (!recording) {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no more recordings"}}');
        return;
      }
      if ('json' in recording) {
        response.writeHead(recording.status, { 'content-type': 'application/json' }).end(recording.json);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const line of recording.chunks) response.write(`data: ${line}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
