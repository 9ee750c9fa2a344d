import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createServer as createEverythingServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The real server-everything behind the SDK's deprecated HTTP+SSE transport
 * (GET `/sse` opens the stream, POST `/messages?sessionId=` sends), on
 * 127.0.0.1. A POST to `/sse` answers 405, as an old server does, so a
 * client in `auto` mode falls back.
 */
export async function startLegacySseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, { transport: SSEServerTransport; close(): Promise<void> }>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/sse' && request.method === 'GET') {
      const transport = new SSEServerTransport('/messages', response);
      const everything = createEverythingServer();
      transports.set(transport.sessionId, {
        transport,
        close: async () => {
          everything.cleanup(transport.sessionId);
          await everything.server.close();
        },
      });
      response.on('close', () => void transports.get(transport.sessionId)?.close().finally(() => transports.delete(transport.sessionId)));
      await everything.server.connect(transport);
      return;
    }
    if (url.pathname === '/messages' && request.method === 'POST') {
      const session = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!session) return void response.writeHead(404).end('Unknown session');
      await session.transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(405).end('Method not allowed');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    async close() {
      await Promise.allSettled([...transports.values()].map((session) => session.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
