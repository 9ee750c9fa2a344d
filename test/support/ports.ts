import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1, chosen by the system. Tests never use fixed ports, so several checkouts can
 * run the suite at once on one machine.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
