import { existsSync, readFileSync } from 'node:fs';
import { chunkLines, startFixtureServer } from '../support/fixture-server';

/** Where the recorded provider responses live (REALWORLD.md), relative to the project root. */
export const FIXTURES = new URL('../../../shared/realworld/provider-fixtures/', import.meta.url);

/** Whether the fixtures are there; tests skip with a visible warning when not. */
export function fixturesAvailable(): boolean {
  const available = existsSync(FIXTURES);
  if (!available) console.warn(`[skipped] provider fixtures are missing: ${FIXTURES.pathname}`);
  return available;
}

/** One recorded response by file name: an SSE replay of `NAME.chunks.txt` or the JSON body of `NAME.json`. */
export type FixtureResponse = { sse: string } | { json: string; status?: number };

/**
 * The shared loopback replay server (test/support/fixture-server.ts), fed by
 * fixture file names; `requests` holds each request's JSON body.
 */
export async function fixtureServer(responses: FixtureResponse[]): Promise<{ baseURL: string; requests: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const read = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
  const server = await startFixtureServer(
    responses.map((response) =>
      'sse' in response
        ? { kind: 'sse' as const, events: chunkLines(read(response.sse)) }
        : { kind: 'json' as const, body: read(response.json), ...(response.status === undefined ? {} : { status: response.status }) },
    ),
  );
  return {
    baseURL: server.baseURL,
    requests: server.bodies as Array<Record<string, unknown>>,
    close: server.close,
  };
}
