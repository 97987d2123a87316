// Where a viewer's stage draws: in a worker on a canvas handed over (remote-stage.ts), kept between
// previews (kept-stage.ts), where the browser can; else on the page (stage.ts, with three.js loaded as a
// chunk of its own). A canvas handed to a worker that then cannot draw (no WebGL there) is the worker's
// for good: the page draws on a new one.
import { parkStage, takeStage, workerMayDraw } from './kept-stage.ts';
import { stageCanvas } from './stage-canvas.ts';
import type { Stage, StageOptions } from './stage-api.ts';

export interface Started {
  stage: Stage;
  drawnIn: 'worker' | 'page';
  canvas: HTMLCanvasElement;
  /** Done with the stage: a worker's is kept for the next preview, a page's is disposed. */
  release(): void;
}

export interface StageStart {
  /** Where the canvas goes (as its first child). */
  host: HTMLElement;
  options: StageOptions;
  /** The worker stopped after it had started drawing. */
  onWorkerStopped(reason: string): void;
}

export async function startStage({ host, options, onWorkerStopped }: StageStart): Promise<Started> {
  if (workerMayDraw()) {
    const kept = takeStage({ ...options, onFailed: (reason, drawing) => drawing && onWorkerStopped(reason) });
    host.prepend(kept.canvas);
    try {
      return { stage: await kept.stage, drawnIn: 'worker', canvas: kept.canvas, release: () => parkStage(kept) };
    } catch {
      kept.canvas.remove();
    }
  }
  const { createStage } = await import('./stage.ts');
  const canvas = stageCanvas();
  host.prepend(canvas);
  const stage = createStage(canvas, { ...options, pixelRatio: globalThis.devicePixelRatio ?? 1 });
  return { stage, drawnIn: 'page', canvas, release: () => stage.dispose() };
}
