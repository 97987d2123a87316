// The page's side of a stage drawn in a worker: the canvas's control goes to stage-worker.ts, and this
// object stands for the stage on the page. Its calls become messages (a model's arrays are transferred,
// so the page keeps no copy of them), the canvas's input is relayed, and what the worker's stage says
// (detail, grid, size labels, frames) comes back to the same callbacks a stage on the page would call.
import type { ParsedModel } from '../../common/models/index.ts';
import { relayInput } from './input-relay.ts';
import { transferablePicture } from './first-picture.ts';
import { buffersOf } from './model-buffers.ts';
import type { CallMessage, FromStage, StageCommand, ToStage } from './stage-protocol.ts';
import type { Stage, StageOptions } from './stage-api.ts';

export type RemoteStageOptions = Pick<StageOptions, 'onDetail' | 'onGrid' | 'onSizeLabels' | 'onFrame' | 'onMarks'> & {
  /** The worker stopped after it had started (a failure to start rejects the start instead). */
  onFailed?: (reason: string, started: boolean) => void;
};

/** Whether this browser can hand a canvas to a worker (Chromium, Electron, Firefox): else the page draws. */
export function canDrawInWorker(): boolean {
  return typeof OffscreenCanvas === 'function' && typeof HTMLCanvasElement !== 'undefined' && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function';
}

/** A stopped worker is ended this long after it was asked to free its GPU resources itself. */
const DISPOSE_GRACE_MS = 1_000;

/**
 * Hands the canvas to a new worker and resolves with the stage once that worker can draw, or rejects when
 * it cannot: the canvas is then the worker's, and the page needs a new one to draw on itself.
 */
export function startRemoteStage(canvas: HTMLCanvasElement, width: number, height: number, options: RemoteStageOptions = {}): Promise<Stage> {
  let settle: { resolve: (stage: Stage) => void; reject: (error: Error) => void } | null = null;
  const starting = new Promise<Stage>((resolve, reject) => (settle = { resolve, reject }));
  const worker = new Worker(new URL('./stage-worker.ts', import.meta.url), { type: 'module', name: 'model-preview' });
  let started = false;
  let stopped = false;
  let nextPicture = 1;
  const pictures = new Map<number, { resolve: (url: string) => void; reject: (error: Error) => void }>();
  const send = (message: ToStage, transfer: Transferable[] = []) => {
    if (!stopped) worker.postMessage(message, transfer);
  };
  const fail = (reason: string) => {
    if (stopped) return;
    stop();
    worker.terminate();
    if (started) options.onFailed?.(reason, true);
    else settle?.reject(new Error(reason));
  };

  worker.onmessage = ({ data }: MessageEvent<FromStage>) => {
    switch (data.type) {
      case 'ready':
        started = true;
        return settle?.resolve(stage);
      case 'failed':
        return fail(data.message);
      case 'detail':
        return options.onDetail?.(data.detail);
      case 'grid':
        return options.onGrid?.(data.cellMm);
      case 'frame':
        options.onSizeLabels?.(data.labels);
        return options.onFrame?.(data.shown, data.gpu);
      case 'marks':
        return options.onMarks?.(data.marks);
      case 'picture': {
        const waiting = pictures.get(data.id);
        pictures.delete(data.id);
        if (data.url) waiting?.resolve(data.url);
        else waiting?.reject(new Error(data.error ?? 'The picture could not be drawn'));
      }
    }
  };
  worker.onerror = (event) => fail(`The preview stopped: ${event.message}`);

  const offscreen = canvas.transferControlToOffscreen();
  send({ type: 'init', canvas: offscreen, pixelRatio: globalThis.devicePixelRatio ?? 1, width, height }, [offscreen]);
  const unrelay = relayInput(canvas, (event) => send({ type: 'input', event }));

  function stop() {
    stopped = true;
    unrelay();
    for (const waiting of pictures.values()) waiting.reject(new Error('The preview was closed'));
    pictures.clear();
  }

  const call = <K extends StageCommand>(method: K, args: Parameters<Stage[K]>, transfer: Transferable[] = []) =>
    send({ type: 'call', method, args } as CallMessage, transfer);

  const stage: Stage = {
    show: (model: ParsedModel, up, arraysFollow) => call('show', [model, up, arraysFollow], buffersOf(model)),
    showPicture(picture, up) {
      const [sent, buffers] = transferablePicture(picture);
      call('showPicture', [sent, up], buffers);
    },
    addTriangles: (arrays) => call('addTriangles', [arrays], buffersOf(arrays)),
    setUpAxis: (up) => call('setUpAxis', [up]),
    showEveryTriangle: () => call('showEveryTriangle', []),
    showOpenEdgesOf: (segments, visible) => call('showOpenEdgesOf', [segments, visible], segments ? [segments.buffer as ArrayBuffer] : []),
    setWireframe: (on) => call('setWireframe', [on]),
    setOpenEdges: (on) => call('setOpenEdges', [on]),
    setSizeBox: (on) => call('setSizeBox', [on]),
    setLook: (look) => call('setLook', [look]),
    fit: () => call('fit', []),
    setLabelInsets: (top, bottom) => call('setLabelInsets', [top, bottom]),
    resize: (w, h) => call('resize', [w, h]),
    clear: () => call('clear', []),
    picture(size) {
      if (stopped) return Promise.reject(new Error('The preview was closed'));
      const id = nextPicture++;
      return new Promise<string>((resolve, reject) => {
        pictures.set(id, { resolve, reject });
        send({ type: 'picture', id, size });
      });
    },
    dispose() {
      send({ type: 'dispose' });
      stop();
      // A worker busy with a long frame frees its context when ended, whatever it was doing.
      setTimeout(() => worker.terminate(), DISPOSE_GRACE_MS);
    },
  };
  return starting;
}
