// Where a viewer's stage draws: in a worker on the canvas handed over (remote-stage.ts) where the browser
// can, else on the page (stage.ts, with three.js loaded as a chunk of its own). A canvas handed to a worker
// that then cannot draw (no WebGL there) is the worker's for good: the page is asked for a new one.
import { canDrawInWorker, startRemoteStage } from './remote-stage.ts';
import type { Stage, StageOptions } from './stage-api.ts';

export interface Started {
  stage: Stage;
  drawnIn: 'worker' | 'page';
}

export interface StageStart {
  /** The canvas to draw on (a new one after `replaceCanvas`). */
  canvas(): HTMLCanvasElement | undefined;
  width: number;
  height: number;
  options: StageOptions;
  /** Puts a new canvas in place of one a worker took and could not draw on. */
  replaceCanvas(): Promise<void>;
  /** The worker stopped after it had started drawing. */
  onWorkerStopped(reason: string): void;
}

export async function startStage({ canvas, width, height, options, replaceCanvas, onWorkerStopped }: StageStart): Promise<Started | null> {
  const given = canvas();
  if (given && canDrawInWorker()) {
    try {
      const stage = await startRemoteStage(given, width, height, { ...options, onFailed: (reason, drawing) => drawing && onWorkerStopped(reason) });
      return { stage, drawnIn: 'worker' };
    } catch {
      await replaceCanvas();
    }
  }
  const { createStage } = await import('./stage.ts');
  const onPage = canvas();
  return onPage ? { stage: createStage(onPage, { ...options, pixelRatio: globalThis.devicePixelRatio ?? 1 }), drawnIn: 'page' } : null;
}
