// The Web Worker entry: parsing and the geometry pass run here so a 100 MB file never blocks the UI.
// Created by worker-client.ts as `new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module' })`.
import { handleRequest, type WorkerRequest } from './worker-protocol.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null; postMessage(message: unknown, transfer?: Transferable[]): void };

scope.onmessage = (event) => {
  void handleRequest(event.data, (reply, transfer) => scope.postMessage(reply, transfer ?? []));
};
