// A worker thread that reads a large model and answers with its first picture: its measured facts and
// the proxy a preview draws first (common/models/proxy.ts), without the topology pass. The window gets
// this a few megabytes in place of the whole file's hundred before it can show anything.
import { parseModel, simplify, type ModelFacts, type ModelFormat } from '../../../common/models/index.ts';
import { packTriangles, type PackedTriangles } from '../../../common/models/packed-triangles.ts';
import { answerJobs } from './thread-jobs.ts';
import { zlibInflateRaw } from './zlib-inflate.ts';

export interface PictureRequest {
  bytes: Uint8Array;
  name: string;
  /** about this many triangles in the picture */
  budget: number;
}

export interface ModelPicture extends PackedTriangles {
  format: ModelFormat;
  /** Measured; the topology's counts are not known yet (`pending`). */
  facts: ModelFacts;
  /** The proxy's colours, RGBA per corner. */
  colors?: Uint8Array<ArrayBuffer>;
}

/** null: no picture is worth sending (a model small enough to be its own, or a file the parser refuses, said when it is opened). */
export type PictureReply = { picture: ModelPicture | null };

export function pictureOfBytes({ bytes, name, budget }: PictureRequest): ModelPicture | null {
  try {
    const model = parseModel(bytes, name, { skipTopology: true, inflateRaw: zlibInflateRaw, bytesOwned: true });
    const proxy = simplify(model, budget);
    if (!proxy) return null;
    return { format: model.format, facts: { ...model.facts, topology: 'pending' }, ...packTriangles(proxy.positions), ...(proxy.colors ? { colors: proxy.colors as Uint8Array<ArrayBuffer> } : {}) };
  } catch {
    return null;
  }
}

answerJobs<PictureRequest, PictureReply>(async (request) => {
  const picture = pictureOfBytes(request);
  const transfer = picture ? [picture.points, picture.corners, ...(picture.colors ? [picture.colors] : [])].map((array) => array.buffer as ArrayBuffer) : [];
  return { reply: { picture }, transfer };
});
