/**
 * The V8 heap of the Worker's isolate under `wrangler dev`, read through its
 * DevTools inspector (`Runtime.getHeapUsage`). With `collect`, asks for a
 * garbage collection first (`HeapProfiler.collectGarbage`; workerd may not
 * answer it, so it is bounded by a timeout).
 */
export async function isolateHeap(inspectorPort: number, collect: boolean): Promise<{ used: number; total: number }> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const WebSocketWithHeaders = WebSocket as unknown as new (url: string, init: { headers: Record<string, string> }) => WebSocket;
  const socket = new WebSocketWithHeaders(targets[0]!.webSocketDebuggerUrl, { headers: { Origin: 'http://localhost' } });
  const pending = new Map<number, (value: unknown) => void>();
  let next = 0;
  socket.onmessage = (message) => {
    const data = JSON.parse(String(message.data)) as { id?: number; result?: unknown };
    if (data.id !== undefined) pending.get(data.id)?.(data.result);
  };
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error('could not connect to the inspector'));
  });
  const call = (method: string) =>
    Promise.race([
      new Promise<unknown>((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params: {} }));
      }),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3_000)),
    ]);
  try {
    if (collect) {
      await call('HeapProfiler.enable');
      await call('HeapProfiler.collectGarbage');
    }
    const usage = (await call('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number } | undefined;
    if (!usage) throw new Error('the inspector did not report heap usage');
    return { used: usage.usedSize, total: usage.totalSize };
  } finally {
    socket.close();
  }
}
