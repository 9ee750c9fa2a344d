import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the recorded provider responses live (REALWORLD.md), relative to the project root. */
export const FIXTURES = new URL('../../../shared/realworld/provider-fixtures/', import.meta.url);

/** Whether the fixtures are there; tests skip with a visible warning when not. */
export function fixturesAvailable(): boolean {
  const available = existsSync(FIXTURES);
  if (!available) console.warn(`[skipped] provider fixtures are missing: ${FIXTURES.pathname}`);
  return available;
}

/** One recorded response: an SSE replay of `NAME.chunks.txt` or the JSON body of `NAME.json`. */
export type FixtureResponse = { sse: string } | { json: string; status?: number };

/** A loopback server on 127.0.0.1 (port 0) that answers each request with the next fixture and records request bodies. */
export async function fixtureServer(responses: FixtureResponse[]): Promise<{ baseURL: string; requests: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const requests: Array<Record<string, unknown>> = [];
  const queue = [...responses];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push(JSON.parse(body || '{}') as Record<string, unknown>);
      const next = queue.shift();
      if (!next) {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"no more fixtures"}');
        return;
      }
      if ('sse' in next) {
        const lines = readFileSync(new URL(next.sse, FIXTURES), 'utf8').split('\n').filter((line) => line.trim().length > 0);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const line of lines) response.write(`data: ${line}\n\n`);
        response.end('data: [DONE]\n\n');
      } else {
        response.writeHead(next.status ?? 200, { 'content-type': 'application/json' }).end(readFileSync(new URL(next.json, FIXTURES), 'utf8'));
      }
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
