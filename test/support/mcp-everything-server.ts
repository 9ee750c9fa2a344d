import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createServer as createEverythingServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AddressInfo } from 'node:net';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

type ServerFactory = () => { server: McpServer; cleanup(sessionId?: string): void };

/**
 * The real `@modelcontextprotocol/server-everything`, mounted in-process with
 * the SDK's Web-standard Streamable HTTP transport and served by Hono on
 * 127.0.0.1 (a random port) — never its standalone mode, which listens on all
 * interfaces. Routes:
 *
 * - `/mcp`: server-everything, one stateful session per `initialize`.
 * - `/empty/mcp`: a real SDK server with no tools at all (no `tools` capability).
 * - `/json/mcp`: server-everything answering with JSON bodies instead of SSE.
 * - `GET /traces/:traceId`: the W3C `traceparent`/`tracestate` headers the MCP routes received for that trace
 *   (the last 1,000 requests), so tests in any runtime can check propagation.
 *
 * CORS is open so the Chromium project can call it from the test page.
 */
export async function startEverythingServer(): Promise<{ url: string; sessions: () => number; close(): Promise<void> }> {
  const sessions = new Map<string, Session>();
  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['content-type', 'accept', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'x-test-actor', 'traceparent', 'tracestate'],
      exposeHeaders: ['mcp-session-id', 'mcp-protocol-version'],
    }),
  );
  const traced: Array<{ traceId: string; traceparent: string; tracestate: string | null; method: string; path: string }> = [];
  app.get('/traces/:traceId', (context) => context.json(traced.filter((entry) => entry.traceId === context.req.param('traceId'))));
  const mount = (path: string, factory: ServerFactory, enableJsonResponse: boolean) => {
    app.all(path, async (context) => {
      const request = context.req.raw;
      const traceparent = request.headers.get('traceparent');
      if (traceparent) {
        traced.push({ traceId: traceparent.split('-')[1] ?? '', traceparent, tracestate: request.headers.get('tracestate'), method: request.method, path });
        if (traced.length > 1_000) traced.shift();
      }
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId) {
        const session = sessions.get(sessionId);
        if (!session) return context.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Unknown session' }, id: null }, 404);
        return session.transport.handleRequest(request);
      }
      if (request.method !== 'POST') return context.text('Method not allowed', 405);
      const { server, cleanup } = factory();
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (id) => {
          sessions.set(id, {
            transport,
            close: async () => {
              sessions.delete(id);
              cleanup(id);
              await server.close();
            },
          });
        },
        onsessionclosed: async (id) => {
          await sessions.get(id)?.close();
        },
      });
      await server.connect(transport);
      return transport.handleRequest(request);
    });
  };
  mount('/mcp', createEverythingServer, false);
  mount('/json/mcp', createEverythingServer, true);
  mount('/empty/mcp', () => ({ server: new McpServer({ name: 'empty', version: '1.0.0' }), cleanup: () => undefined }), false);

  const server = await new Promise<ServerType>((resolveListen) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolveListen(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions: () => sessions.size,
    async close() {
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
