// What a viewer's stage does and tells, whichever thread it draws on: stage.ts is the stage itself, and
// remote-stage.ts stands for one drawing in a worker (stage-protocol.ts carries these calls across).
import type { ModelArrays, ParsedModel } from '../../common/models/index.ts';
import type { ModelPicture } from '../../electron/contract/schemas/library.ts';
import type { StageMarks } from './marks.ts';
import type { SizeLabel } from './size-box.ts';
import type { ViewerLook } from './look.ts';
import type { UpAxis } from './up-axis.ts';
import type { InputTarget } from './view-controls.ts';

/**
 * How much of a model with a proxy is drawn at rest, and how much of every triangle is uploaded yet
 * (`loaded`, 0…1); null for a model drawn whole always.
 */
export type Detail = { simplified: boolean; drawn: number; total: number; loaded: number } | null;

/** A model as a preview draws it, for the page around the preview (the library's thumbnail of it). */
export interface ShownModel {
  format: ParsedModel['format'];
  /** A PNG data URL of the model, `size` pixels square, standing as shown. */
  picture(size: number): Promise<string>;
}

/** Geometries and textures a stage holds on the GPU (three's count). */
export interface GpuMemory {
  geometries: number;
  textures: number;
}

export interface StageOptions {
  /** Hears when the view at rest changes between the proxy and every triangle, and the loading's progress. */
  onDetail?: (detail: Detail) => void;
  /** Hears the side of the plate's grid cells, in mm, when a model is shown or turned. */
  onGrid?: (cellMm: number) => void;
  /** Hears where the size box's labels go after each frame (null while the box is hidden). */
  onSizeLabels?: (labels: SizeLabel[] | null) => void;
  /**
   * Hears each frame drawn; `shown` on the first one with the model last given to show(). With what the
   * stage holds on the GPU: a stage kept between previews must not gather the models it showed.
   */
  onFrame?: (shown: boolean, gpu: GpuMemory) => void;
  /** Hears, with the first frame of a model, when the stage got it, had built it and had drawn it (see marks.ts). */
  onMarks?: (marks: StageMarks) => void;
  /** What the controls and keys listen to: the canvas itself, or what stands in for it in a worker. */
  input?: InputTarget;
  pixelRatio?: number;
  /** Kept for reading the canvas back on the page; a worker's canvas shows its last frame anyway. */
  preserveDrawingBuffer?: boolean;
  /** The page's colours and size unit, from the start (see setLook). */
  look?: ViewerLook;
}

export interface Stage {
  /**
   * Draws `model` standing with `up` up. With `arraysFollow`, the model came as its proxy alone (its
   * arrays empty): the proxy is drawn, and every triangle is loaded once addTriangles brings them.
   */
  show(model: ParsedModel, up: UpAxis, arraysFollow?: boolean): void;
  /**
   * Draws a large model's first picture from the host, as show() draws a proxy whose every triangle
   * follows. It comes packed (packed-triangles.ts) and is unpacked here: in a worker's stage, off the page's thread.
   */
  showPicture(picture: ModelPicture, up: UpAxis): void;
  /** Every triangle of the model shown, which show() was told would follow. */
  addTriangles(arrays: ModelArrays): void;
  /** Turns the model shown so that `up` points up, and fits the view to it again. */
  setUpAxis(up: UpAxis): void;
  /** Draws every triangle at rest, however slow (the user asked). */
  showEveryTriangle(): void;
  /** Adds what the topology pass found (open edges) to the model on show, without rebuilding it. */
  showOpenEdgesOf(segments: Float32Array | undefined, visible: boolean): void;
  setWireframe(on: boolean): void;
  setOpenEdges(on: boolean): void;
  /** Shows or hides the model's box with its sides' lengths (the dimensions overlay). */
  setSizeBox(on: boolean): void;
  /** Takes the page's theme colours and size unit: light or dark, mm or inches. */
  setLook(look: ViewerLook): void;
  fit(): void;
  /** Pixels at the canvas's top and bottom that size labels keep clear of (the tool row, the notes). */
  setLabelInsets(top: number, bottom: number): void;
  resize(width: number, height: number): void;
  /** A PNG data URL of the model shown, `size` pixels square, standing as it is shown (for the library). */
  picture(size: number): Promise<string>;
  /** Takes the model off the stage and frees its GPU resources, keeping the stage (and its context) for the next. */
  clear(): void;
  /** Frees every GPU resource and the WebGL context itself. */
  dispose(): void;
}

