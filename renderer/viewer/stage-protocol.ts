// Messages between the page and a stage drawn in a worker (stage-worker.ts). The page transfers the
// canvas once, then sends what the Stage interface's calls say (a model's arrays are transferred, not
// copied) and the input the canvas receives; the worker answers with what the stage tells its page.
import type { ParsedModel } from '../../common/models/index.ts';
import type { StageMarks } from './marks.ts';
import type { RelayedEvent } from './input-relay.ts';
import type { SizeLabel } from './size-box.ts';
import type { Detail, GpuMemory, Stage } from './stage-api.ts';
import type { UpAxis } from './up-axis.ts';

/** The Stage's calls that carry no answer, sent as they are. */
export type StageCommand = Exclude<keyof Stage, 'picture' | 'dispose'>;

export type CallMessage = { [K in StageCommand]: { type: 'call'; method: K; args: Parameters<Stage[K]> } }[StageCommand];

export type ToStage =
  | { type: 'init'; canvas: OffscreenCanvas; pixelRatio: number; width: number; height: number }
  | CallMessage
  | { type: 'input'; event: RelayedEvent }
  /** A PNG of the model shown (the viewer's stage), or of `model` (the shared thumbnail worker). */
  | { type: 'picture'; id: number; size: number; model?: ParsedModel; up?: UpAxis }
  | { type: 'dispose' };

export type FromStage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'detail'; detail: Detail }
  | { type: 'grid'; cellMm: number }
  | { type: 'frame'; shown: boolean; gpu: GpuMemory; labels: SizeLabel[] | null }
  | { type: 'marks'; marks: StageMarks }
  | { type: 'picture'; id: number; url?: string; error?: string };
