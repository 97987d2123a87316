// Library thumbnails drawn off the page's thread: one worker (stage-worker.ts, with no canvas of its own)
// draws them one after another and is ended when idle. Where a worker cannot draw, the page does, as the
// preview does (thumbnail-render.ts).
import type { ParsedModel } from '../../common/models/index.ts';
import { buffersOf } from './model-buffers.ts';
import { canDrawInWorker } from './remote-stage.ts';
import type { FromStage, ToStage } from './stage-protocol.ts';
import type { UpAxis } from './up-axis.ts';

/** Thumbnails come in bursts (an upload, a first listing): the worker and its context go after this long. */
const IDLE_MS = 20_000;

let worker: Worker | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
let workerCannotDraw = false;
let nextId = 1;
const waiting = new Map<number, { resolve: (url: string) => void; reject: (error: Error) => void }>();

function pictureWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./stage-worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' });
  started.onmessage = ({ data }: MessageEvent<FromStage>) => {
    if (data.type !== 'picture') return;
    const entry = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.url) entry?.resolve(data.url);
    else entry?.reject(new Error(data.error ?? 'The thumbnail could not be drawn'));
  };
  started.onerror = (event) => {
    for (const entry of waiting.values()) entry.reject(new Error(`The thumbnail worker stopped: ${event.message}`));
    waiting.clear();
    ended();
  };
  worker = started;
  return started;
}

function ended(): void {
  clearTimeout(idleTimer);
  worker?.terminate();
  worker = null;
}

function inWorker(model: ParsedModel, size: number, up: UpAxis): Promise<string> {
  const target = pictureWorker();
  clearTimeout(idleTimer);
  const id = nextId++;
  const drawn = new Promise<string>((resolve, reject) => waiting.set(id, { resolve, reject }));
  const message: ToStage = { type: 'picture', id, size, model, up };
  target.postMessage(message, buffersOf(model));
  return drawn.finally(() => {
    if (waiting.size === 0) idleTimer = setTimeout(ended, IDLE_MS);
  });
}

/**
 * A PNG data URL of `model` (its arrays are handed to the worker), `size` pixels square, standing `up`.
 * A worker that cannot draw (no WebGL there) is given up for the page for the rest of the session.
 */
export async function drawPicture(model: ParsedModel, size: number, up: UpAxis): Promise<string> {
  if (canDrawInWorker() && !workerCannotDraw) {
    try {
      return await inWorker(model, size, up);
    } catch (error) {
      // The arrays went to the worker with the request: the caller must read the file again.
      workerCannotDraw = true;
      throw error;
    }
  }
  const { renderThumbnail } = await import('./thumbnail-render.ts');
  return renderThumbnail(model, size, up);
}
