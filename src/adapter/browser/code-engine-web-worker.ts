// The Web Worker side of createWebWorkerCodeEngine: QuickJS (its wasm loaded as an asset), served over postMessage.
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { createQuickJsEngine } from '../../code-mode/quickjs/quickjs-engine.ts';
import type { HostMessage, WorkerMessage } from '../../code-mode/remote/remote-protocol.ts';
import { serveCodeEngine } from '../../code-mode/remote/serve-code-engine.ts';

const scope = globalThis as unknown as {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: { data: HostMessage }) => void): void;
};
serveCodeEngine({ post: (message) => scope.postMessage(message), listen: (listener) => scope.addEventListener('message', (event) => listener(event.data)) }, createQuickJsEngine({ variant }));
