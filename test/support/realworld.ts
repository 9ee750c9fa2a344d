import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkLines, splitStreams } from './fixture-server';
import type { FixtureResponse } from './fixture-server';

/** The project root (two folders above this file). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `../shared/realworld` relative to the project root, as REALWORLD.md places it. */
export const realworldRoot = resolve(projectRoot, '../shared/realworld');

/**
 * Whether the real-world material a test needs is present. When it is not,
 * says so loudly (the test is then skipped, never passed vacuously).
 */
export function hasRealworld(...parts: string[]): boolean {
  const path = join(realworldRoot, ...parts);
  if (existsSync(path)) return true;
  console.warn(`[ghostlight tests] SKIPPED: ${path} is missing; real-world replay tests need ../shared/realworld (see REALWORLD.md).`);
  return false;
}

/** Reads a file under `../shared/realworld`. */
export function readRealworld(...parts: string[]): string {
  return readFileSync(join(realworldRoot, ...parts), 'utf8');
}

/**
 * A recorded stream under `../shared/realworld/provider-fixtures` as replay
 * responses; with `split`, one response per stream, starting at each line
 * that contains it (e.g. `"type":"response.created"`).
 */
export function recordedStreams(path: string, split?: string): FixtureResponse[] {
  const lines = chunkLines(readRealworld('provider-fixtures', path));
  const streams = split ? splitStreams(lines, (line) => line.includes(split)) : [lines];
  return streams.map((events) => ({ kind: 'sse', events }));
}
