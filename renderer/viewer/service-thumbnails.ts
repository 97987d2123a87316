// Thumbnails of models this computer has no file of (uploaded elsewhere, or before a reinstall): drawn
// once from the service's copy when their row comes into view, then cached by hash like any other.
// Small models only, two at a time, so scrolling a large library neither floods the link nor the worker.
import PQueue from 'p-queue';
import { printdesk, unwrap } from '../lib/bridge.ts';
import { thumbnailFor } from './thumbnails.ts';

/** Bigger models get their thumbnail when their detail view downloads them anyway. */
export const SERVICE_THUMBNAIL_LIMIT = 20 * 1024 * 1024;

const queue = new PQueue({ concurrency: 2 });
const asked = new Set<string>();

export interface ThumbnailSource {
  modelId: string;
  sha256: string | null;
  sizeBytes: number | null;
}

export function drawFromService(model: ThumbnailSource): void {
  const { sha256 } = model;
  if (!sha256 || asked.has(sha256) || model.sizeBytes === null || model.sizeBytes > SERVICE_THUMBNAIL_LIMIT) return;
  asked.add(sha256);
  void queue
    .add(async () => {
      const file = unwrap(await printdesk.library.modelFile({ modelId: model.modelId }));
      if (file) await thumbnailFor(file.bytes.slice().buffer, file.name, { sha256 });
    })
    // A missing thumbnail is not worth an error; the row may ask again when it is shown next time.
    .catch(() => asked.delete(sha256));
}
