// How much of a large model's every-triangle copy goes to the GPU between two frames. Uploading 2M
// triangles (72 MB) at once holds the stage for several frames' time; in parts sized by what the last
// part cost, no frame of the loading takes longer than a moving frame's budget, and the view still turns.
import { MOVING_FRAME_MS } from './detail-policy.ts';

/** No loading step should hold the stage longer than a frame of a moving view may take. */
export const LOADING_FRAME_MS = MOVING_FRAME_MS;
const FIRST_PART = 131_072;
const SMALLEST_PART = 16_384;
const LARGEST_PART = 2_097_152;

export class UploadPacer {
  /** Triangles of the next part. */
  next = FIRST_PART;

  /** What a step of `triangles` cost, from its start to the next frame: the next part is sized by it. */
  record(triangles: number, ms: number): void {
    if (!(ms > 0)) return;
    // Aim at half the budget: the cost per triangle moves with what else the machine is doing.
    const fitting = (triangles * (LOADING_FRAME_MS / 2)) / ms;
    this.next = Math.round(Math.min(LARGEST_PART, Math.max(SMALLEST_PART, Math.min(fitting, this.next * 2))));
  }
}
