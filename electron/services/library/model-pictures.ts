// A large model's first picture for its preview: the proxy the viewer draws first and the model's measures,
// a few megabytes the host sends ahead of the file's hundred, so the model is on screen while its every
// triangle is still on its way. Kept by content hash: opening the model again costs no reading.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PREVIEW_PROXY_TRIANGLES } from '../../../common/models/index.ts';
import { sharedWhileRunning } from '../../../common/shared-calls.ts';
import type { ModelPicture as ModelPictureMessage } from '../../contract/schemas/library.ts';
import type { PictureReader } from '../models/model-picture.ts';
import type { ModelCache } from './model-cache.ts';
import type { ModelFile } from './model-files.ts';
import type { Model } from './models.ts';

/** Smaller files reach the preview about as fast whole (a binary STL of this size has 320K triangles). */
export const PICTURE_FROM_BYTES = 16 * 1024 * 1024;

/** The picture as the window gets it: its arrays are bytes (a message carries byte arrays as they are). */
export type PictureMessage = ModelPictureMessage;

export interface ModelPictureDeps {
  /** The model's record: its hash names the picture kept, so the one last seen serves (a model's content never changes). */
  model: (modelId: string) => Promise<Model>;
  /** the file as the preview reads it, never downloaded for this (the preview's own reading does that once) */
  modelFile: (modelId: string, options: { download: false }) => Promise<ModelFile | null>;
  reader: PictureReader;
  /** pictures kept by the model's hash (in a folder named for the proxy's size) */
  cache?: ModelCache;
}

/** The picture's byte arrays, in the order they follow its head on disk. */
const ARRAYS = ['points', 'corners', 'colors'] as const;

/** A 4-byte length, the JSON of the picture without its arrays (their lengths instead), then the arrays back to back. */
export function encodePicture(picture: PictureMessage): Uint8Array {
  const { format, facts, box, triangles } = picture;
  const lengths = ARRAYS.map((name) => picture[name]?.byteLength ?? 0);
  const head = new TextEncoder().encode(JSON.stringify({ format, facts, box, triangles, lengths }));
  const out = new Uint8Array(4 + head.length + lengths.reduce((a, b) => a + b, 0));
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const name of ARRAYS) {
    const array = picture[name];
    if (array) out.set(array, at);
    at += array?.byteLength ?? 0;
  }
  return out;
}

export function decodePicture(bytes: Uint8Array): PictureMessage | null {
  try {
    const headLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    const head = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headLength))) as Pick<PictureMessage, 'format' | 'facts' | 'box' | 'triangles'> & { lengths: number[] };
    let at = 4 + headLength;
    const arrays = head.lengths.map((length) => bytes.slice(at, (at += length)));
    if (at !== bytes.byteLength || arrays.length !== ARRAYS.length) return null;
    const [points, corners, colors] = arrays;
    return { format: head.format, facts: head.facts, box: head.box, triangles: head.triangles, points, corners, ...(colors.byteLength ? { colors } : {}) };
  } catch {
    return null;
  }
}

/**
 * The pictures kept before they were packed, in their own folder (up to a tenth of the model cache's
 * gigabyte): no version reads them now, so they go.
 */
export async function dropUnpackedPictures(modelCacheDir: string): Promise<void> {
  await rm(join(modelCacheDir, `pictures-${PREVIEW_PROXY_TRIANGLES}`), { recursive: true, force: true });
}

export type ModelPictures = ReturnType<typeof createModelPictures>;

export function createModelPictures(deps: ModelPictureDeps) {
  let preparing: Promise<unknown> = Promise.resolve();

  async function read(modelId: string): Promise<PictureMessage | null> {
    const model = await deps.model(modelId);
    if (model.sizeBytes !== null && model.sizeBytes < PICTURE_FROM_BYTES) return null;
    const kept = model.sha256 ? await deps.cache?.get(model.sha256) : null;
    const decoded = kept ? decodePicture(kept) : null;
    if (decoded) return decoded;
    const file = await deps.modelFile(modelId, { download: false });
    if (!file || file.bytes.byteLength < PICTURE_FROM_BYTES) return null;
    const picture = await deps.reader.picture(file.bytes, file.name);
    if (!picture) return null;
    // A full disk only costs the next opening its reading.
    if (model.sha256) await deps.cache?.put(model.sha256, encodePicture(picture)).catch(() => undefined);
    return picture;
  }

  /** A preview opened while its picture is being prepared waits for that reading. */
  const picture = sharedWhileRunning(read);

  return {
    picture,
    /**
     * Reads the picture of a large model just uploaded, one model at a time, so that its first opening
     * finds it kept. Only with a cache (without one there is nowhere to keep it); failures wait for the opening.
     */
    prepare(modelId: string, sizeBytes: number): void {
      if (!deps.cache || sizeBytes < PICTURE_FROM_BYTES) return;
      preparing = preparing.then(() => picture(modelId)).catch(() => undefined);
    },
  };
}
