// The host's first picture of a large model (electron/services/library/model-pictures.ts) as the stage
// takes a model sent as its proxy alone: the same shape the model worker's early reply has.
import type { ParsedModel } from '../../common/models/index.ts';
import { unpackIndexed, unpackTriangles } from '../../common/models/packed-triangles.ts';
import type { ModelPicture } from '../../electron/contract/schemas/library.ts';

/** The bytes' own buffer, or a copy: a stage in a worker takes the arrays over, and a view into a larger message cannot go. */
const ownBuffer = (bytes: Uint8Array): ArrayBuffer =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;

/**
 * The picture as a model. One whose packing does not hold together is an empty proxy: the model is on
 * screen when its every triangle comes from the file, as without a picture.
 */
export function pictureModel({ format, facts, colors, ...packed }: ModelPicture): ParsedModel {
  const empty = { positions: new Float32Array(0), triangles: 0 };
  let proxy;
  try {
    // Drawn indexed, each point once: software WebGL shades a sixth of the corners a soup has. Colours come a
    // corner each, so a coloured picture is drawn as its soup.
    if (colors) proxy = { positions: unpackTriangles(packed), triangles: packed.triangles, colors: new Uint8Array(ownBuffer(colors)) };
    else {
      const { points, indices } = unpackIndexed(packed);
      proxy = { positions: points, indices, triangles: packed.triangles };
    }
  } catch {
    proxy = empty;
  }
  return { format, facts, positions: new Float32Array(0), proxy };
}

/** The picture with each array in a buffer of its own, and those buffers, for a worker's stage to take over. */
export function transferablePicture(picture: ModelPicture): [ModelPicture, ArrayBuffer[]] {
  const own = (bytes: Uint8Array) => new Uint8Array(ownBuffer(bytes));
  const sent = { ...picture, points: own(picture.points), corners: own(picture.corners), ...(picture.colors ? { colors: own(picture.colors) } : {}) };
  const buffers = new Set([sent.points.buffer, sent.corners.buffer, ...(sent.colors ? [sent.colors.buffer] : [])] as ArrayBuffer[]);
  return [sent, [...buffers]];
}
