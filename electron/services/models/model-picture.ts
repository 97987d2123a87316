// A large model's first picture, read in a worker thread (picture-worker.ts) so the host keeps answering
// the window while 2M triangles are parsed and simplified.
import { PREVIEW_PROXY_TRIANGLES } from '../../../common/models/index.ts';
import type { ModelPicture, PictureReply, PictureRequest } from './picture-worker.ts';
import { createThreadJobs, siblingScript } from './thread-jobs.ts';

export type { ModelPicture } from './picture-worker.ts';

export interface PictureReader {
  /** The picture of the model in `bytes` (handed over: they are detached), or null when none is worth drawing. */
  picture(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<ModelPicture | null>;
  close(): Promise<void>;
}

export function createPictureReader(): PictureReader {
  // A worker that cannot run only costs the early picture: the preview draws from the file as before.
  const jobs = createThreadJobs<PictureRequest, PictureReply>(siblingScript(import.meta.url, 'picture-worker'), { picture: null });
  return {
    async picture(bytes, name) {
      return (await jobs.run({ bytes, name, budget: PREVIEW_PROXY_TRIANGLES }, [bytes.buffer])).picture;
    },
    close: jobs.close,
  };
}
