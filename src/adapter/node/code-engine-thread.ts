// The worker-thread side of createWorkerThreadCodeEngine: QuickJS, served over the port the host handed over.
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { createQuickJsEngine } from '../../code-mode/quickjs/quickjs-engine.ts';
import type { HostMessage } from '../../code-mode/remote/remote-protocol.ts';
import { serveCodeEngine } from '../../code-mode/remote/serve-code-engine.ts';

const port = (workerData as { port: MessagePort }).port;
serveCodeEngine(
  { post: (message) => port.postMessage(message), listen: (listener) => port.on('message', (message: HostMessage) => listener(message)) },
  createQuickJsEngine({ variant }),
);
