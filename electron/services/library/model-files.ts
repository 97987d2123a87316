// A model's bytes for its preview and measured facts: the file it was uploaded from, while that file
// is still the same, or else a copy from the service (checked against the model's SHA-256).
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { ApiClient } from '../api/client.ts';
import { readableBytes } from '../../../common/readable-number.ts';
import { HostError } from '../api/errors.ts';
import { readWhole } from '../models/read-whole.ts';
import type { ModelCache } from './model-cache.ts';
import type { Model } from './models.ts';
import type { UploadItem } from '../../contract/schemas/library.ts';

// The preview reads the file whole; past this it is not worth holding in two processes.
export const PREVIEW_LIMIT_BYTES = 512 * 1024 * 1024;

export interface ModelFile {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** where the bytes came from: the user's own file, or the service */
  source: 'local' | 'service';
}

/** An upload, with its file's modified time when it was queued (0 or none: unknown). */
type UploadedFile = UploadItem & { mtimeMs?: number };

export interface ModelFileDeps {
  client: () => ApiClient;
  uploads: () => UploadedFile[];
  model: (modelId: string) => Promise<Model>;
  /** downloads kept by hash; none, and every preview downloads again */
  cache?: ModelCache;
  /** largest file a preview reads (PREVIEW_LIMIT_BYTES unless a test says otherwise) */
  limitBytes?: number;
}

function tooLarge(name: string, size: number, limit: number): HostError {
  return new HostError('FILE_INVALID', `${name} is ${readableBytes(size)}; a preview reads models up to ${readableBytes(limit)}`);
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function uploadedFile(modelId: string, uploads: UploadedFile[], limit: number): Promise<ModelFile | null> {
  const upload = uploads.find((u) => u.modelId === modelId && u.state === 'done');
  if (!upload) return null;
  const info = await stat(upload.path).catch(() => null);
  // The file changed or went away since it was uploaded: it is no longer this model. A size check is
  // not enough (a binary STL moved or scaled keeps its size): a file written since (another modified time)
  // must hash to the upload's. One untouched since is the upload's without hashing 100 MB again.
  if (!info || info.size !== upload.sizeBytes) return null;
  if (info.size > limit) throw tooLarge(upload.fileName, info.size, limit);
  const bytes = await readWhole(upload.path);
  const untouched = (upload.mtimeMs ?? 0) > 0 && Math.floor(info.mtimeMs) === upload.mtimeMs;
  if (upload.sha256 && !untouched && sha256Of(bytes) !== upload.sha256) return null;
  return { name: upload.fileName, bytes, source: 'local' };
}

export function createModelFiles(deps: ModelFileDeps) {
  /** With `download: false`, only a file already on this computer (the upload's, or the cache's copy). */
  return async function modelFile(modelId: string, { download = true } = {}): Promise<ModelFile | null> {
    const limit = deps.limitBytes ?? PREVIEW_LIMIT_BYTES;
    const local = await uploadedFile(modelId, deps.uploads(), limit);
    if (local) return local;
    const model = await deps.model(modelId);
    const name = model.fileName ?? `${model.name}.${model.format ?? 'stl'}`;
    if (model.sizeBytes !== null && model.sizeBytes > limit) throw tooLarge(name, model.sizeBytes, limit);
    const cached = model.sha256 ? await deps.cache?.get(model.sha256) : null;
    if (cached) return { name, bytes: cached, source: 'service' };
    if (!download) return null;
    const bytes = await deps.client().download('downloadModel', { modelId }, limit);
    if (!bytes) return null;
    if (model.sha256) {
      if (sha256Of(bytes) !== model.sha256.toLowerCase()) {
        throw new HostError('INTERNAL_ERROR', `The service sent a file for ${model.name} that does not match its SHA-256; try again`);
      }
      // A full disk only costs the next preview a download.
      await deps.cache?.put(model.sha256, bytes).catch(() => undefined);
    }
    return { name, bytes, source: 'service' };
  };
}
