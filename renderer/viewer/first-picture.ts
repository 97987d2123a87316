// The host's first picture of a large model (electron/services/library/model-pictures.ts) as the stage
// takes a model sent as its proxy alone: the same shape the model worker's early reply has.
import type { ParsedModel } from '../../common/models/index.ts';
import type { ModelPicture } from '../../electron/contract/schemas/library.ts';

/** The bytes' own buffer, or a copy: a stage in a worker takes the arrays over, and a view into a larger message cannot go. */
const ownBuffer = (bytes: Uint8Array): ArrayBuffer =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;

export function pictureModel({ format, facts, positions, colors }: ModelPicture): ParsedModel {
  const proxyPositions = new Float32Array(ownBuffer(positions));
  const proxy = { positions: proxyPositions, triangles: proxyPositions.length / 9, ...(colors ? { colors: new Uint8Array(ownBuffer(colors)) } : {}) };
  return { format, facts, positions: new Float32Array(0), proxy };
}
