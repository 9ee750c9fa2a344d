import type { TestProject } from 'vitest/node';
import { startEverythingServer } from './mcp-everything-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the in-process server-everything (`${mcpOrigin}/mcp`), started once per test project. */
    mcpOrigin: string;
  }
}

/**
 * Starts the real MCP server-everything in Node (127.0.0.1, a random port)
 * for a test project and provides its origin to the tests, which run in Node,
 * workerd or Chromium and reach it over Streamable HTTP with `fetch`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startEverythingServer();
  project.provide('mcpOrigin', server.url);
  return () => server.close();
}
