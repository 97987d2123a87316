// A model's bytes for its preview and measured facts: the file it was uploaded from, while that file
// is still the same, or else a copy from the service (checked against the model's SHA-256).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { ModelCache } from './model-cache.ts';
import type { Model } from './models.ts';
import type { UploadItem } from './upload-store.ts';

// The preview reads the file whole; past this it is not worth holding in two processes.
export const PREVIEW_LIMIT_BYTES = 512 * 1024 * 1024;

export interface ModelFile {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** where the bytes came from: the user's own file, or the service */
  source: 'local' | 'service';
}

export interface ModelFileDeps {
  client: () => ApiClient;
  uploads: () => UploadItem[];
  model: (modelId: string) => Promise<Model>;
  /** downloads kept by hash; none, and every preview downloads again */
  cache?: ModelCache;
}

async function uploadedFile(modelId: string, uploads: UploadItem[]): Promise<ModelFile | null> {
  const upload = uploads.find((u) => u.modelId === modelId && u.state === 'done');
  if (!upload) return null;
  const info = await stat(upload.path).catch(() => null);
  // The file changed or went away since it was uploaded: it is no longer this model.
  if (!info || info.size !== upload.sizeBytes || info.size > PREVIEW_LIMIT_BYTES) return null;
  return { name: upload.fileName, bytes: new Uint8Array(await readFile(upload.path)), source: 'local' };
}

export function createModelFiles(deps: ModelFileDeps) {
  return async function modelFile(modelId: string): Promise<ModelFile | null> {
    const local = await uploadedFile(modelId, deps.uploads());
    if (local) return local;
    const model = await deps.model(modelId);
    if (model.sizeBytes !== null && model.sizeBytes > PREVIEW_LIMIT_BYTES) return null;
    const name = model.fileName ?? `${model.name}.${model.format ?? 'stl'}`;
    const cached = model.sha256 ? await deps.cache?.get(model.sha256) : null;
    if (cached) return { name, bytes: cached, source: 'service' };
    const bytes = await deps.client().download('downloadModel', { modelId }, PREVIEW_LIMIT_BYTES);
    if (!bytes) return null;
    if (model.sha256) {
      if (createHash('sha256').update(bytes).digest('hex') !== model.sha256.toLowerCase()) {
        throw new HostError('INTERNAL_ERROR', `The service sent a file for ${model.name} that does not match its SHA-256; try again`);
      }
      // A full disk only costs the next preview a download.
      await deps.cache?.put(model.sha256, bytes).catch(() => undefined);
    }
    return { name, bytes, source: 'service' };
  };
}
