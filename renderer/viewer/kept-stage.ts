// One stage in a worker kept between previews. Without a GPU, starting a stage (a worker, three.js, a
// WebGL context, its shaders compiled) is about a second, most of the time to a model's first picture:
// a closed preview parks its stage, cleared, with its canvas, and the next preview takes it. One is
// also started ahead (warmStage) when the library shows, so the first preview finds one ready.
import { canDrawInWorker, startRemoteStage, type RemoteStageOptions } from './remote-stage.ts';
import { stageCanvas } from './stage-canvas.ts';
import type { Stage } from './stage-api.ts';

export interface KeptStage {
  canvas: HTMLCanvasElement;
  /** Resolves once the worker can draw; rejects when it cannot (the canvas is then the worker's for good). */
  stage: Promise<Stage>;
  /** The viewer now using the stage hears what it tells (nobody while parked). */
  listen(options: RemoteStageOptions): void;
}

let parked: KeptStage | null = null;
/** A worker here could not draw: every preview draws on its page, and none is started ahead. */
let cannotDraw = false;

function startKept(): KeptStage {
  const canvas = stageCanvas();
  let listener: RemoteStageOptions = {};
  const kept: KeptStage = {
    canvas,
    stage: startRemoteStage(canvas, canvas.width, canvas.height, {
      onDetail: (detail) => listener.onDetail?.(detail),
      onGrid: (cell) => listener.onGrid?.(cell),
      onSizeLabels: (labels) => listener.onSizeLabels?.(labels),
      onFrame: (shown, gpu) => listener.onFrame?.(shown, gpu),
      onMarks: (marks) => listener.onMarks?.(marks),
      onFailed: (reason, started) => {
        // A worker that stopped is never handed out again.
        if (parked === kept) parked = null;
        listener.onFailed?.(reason, started);
      },
    }),
    listen: (options) => (listener = options),
  };
  kept.stage.catch(() => {
    cannotDraw = true;
    if (parked === kept) parked = null;
  });
  return kept;
}

/** Whether previews here may draw in a worker: the browser can hand over a canvas, and no worker failed to draw. */
export const workerMayDraw = (): boolean => canDrawInWorker() && !cannotDraw;

/** The parked stage, or a new one starting, now telling `options`. */
export function takeStage(options: RemoteStageOptions): KeptStage {
  const kept = parked ?? startKept();
  parked = null;
  kept.listen(options);
  return kept;
}

/** A viewer is done with its stage: kept, cleared, for the next preview, unless one is kept already. */
export function parkStage(kept: KeptStage): void {
  kept.listen({});
  kept.canvas.remove();
  if (parked) {
    kept.stage.then((stage) => stage.dispose(), () => undefined);
    return;
  }
  parked = kept;
  kept.stage.then((stage) => stage.clear(), () => undefined);
}

/** Starts a stage ahead of the first preview, where a worker can draw and none is kept yet. */
export function warmStage(): void {
  if (!parked && workerMayDraw()) parked = startKept();
}
