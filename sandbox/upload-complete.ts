// The end of an upload (resumable or whole-file): hash, check the content, file the bytes under
// their hash and record the model, or hand back the project's existing model with the same bytes.
import fs from 'node:fs';
import { ApiError, ok } from './http.ts';
import type { Reply } from './http.ts';
import { checkReceivedFile } from './model-check.ts';
import type { RouteContext, Services } from './router.ts';
import { findFolder } from './store/folders.ts';
import { findModel, findModelBySha, insertModel, linkIntoStore } from './store/models.ts';
import type { ModelRecord } from './store/models.ts';
import { findUpload, finishUpload } from './store/uploads.ts';
import type { UploadRow } from './store/uploads.ts';
import { CHUNK_SIZE_LIMIT, hashFile } from './upload-files.ts';
import { isoSeconds } from './validate.ts';

/** The answer of every upload route: where the session stands, and the model once it is done. */
export function uploadReply(row: UploadRow, db: Services['db']): Reply {
  const model: ModelRecord | null = row.model_id ? (findModel(db, row.model_id)?.record ?? null) : null;
  const data = {
    uploadId: row.upload_id,
    offset: row.received_bytes,
    sizeBytes: row.size_bytes,
    state: row.state,
    complete: row.state === 'complete',
    chunkSizeLimit: CHUNK_SIZE_LIMIT,
    expiresAt: isoSeconds(row.expires_at),
    ...(row.state === 'complete' ? { duplicate: row.duplicate === 1, model } : {}),
    ...(row.error ? { error: row.error } : {}),
  };
  return { ...ok(data), headers: { 'Upload-Offset': String(row.received_bytes) } };
}

/** A session of the caller's; someone else's is as unknown as a missing one, so ids cannot be probed. */
export function ownUpload(ctx: RouteContext, uploadId: string): UploadRow {
  const row = findUpload(ctx.services.db, uploadId);
  if (!row || row.user_id !== ctx.user!.user_id) throw new ApiError(404, 'NOT_FOUND', `Upload ${uploadId} does not exist`);
  return row;
}

/**
 * Completes a session whose bytes are all in `file`. `sha256` is the hash kept while the bytes
 * arrived, when there is one; otherwise the file is read again.
 */
export async function completeUpload(services: Services, row: UploadRow, file: string, sha256?: string): Promise<Reply> {
  const { db, dataDir } = services;
  services.uploads.hashes.delete(row.upload_id);
  const reject = (message: string): ApiError => {
    finishUpload(db, row.upload_id, { state: 'failed', error: message });
    fs.rmSync(file, { force: true });
    return new ApiError(400, 'INCORRECT_PARAMETERS', message);
  };
  const sha = sha256 ?? (await hashFile(file));
  if (row.declared_sha256 && row.declared_sha256 !== sha) {
    throw reject(`The bytes received have SHA-256 ${sha}, not the declared ${row.declared_sha256}; the file changed while it was sent. Start a new upload.`);
  }
  const check = await checkReceivedFile(file, row.file_name, row.size_bytes);
  if (!check.ok) throw reject(check.reason);
  // Synchronous from here: nothing may delete the stored file between filing it and recording the model.
  linkIntoStore(dataDir, sha, file);
  db.transaction(() => {
    const existing = row.allow_duplicate ? undefined : findModelBySha(db, row.project_id, sha);
    // The target folder may have been deleted while the bytes were on their way: file the model at the top.
    const folder = row.folder_id ? findFolder(db, row.folder_id) : undefined;
    const model = existing ?? insertModel(db, {
      projectId: row.project_id, folderId: folder?.projectId === row.project_id ? folder.folderId : null,
      name: row.name, fileName: row.file_name, format: check.format, sizeBytes: row.size_bytes, sha256: sha,
    });
    finishUpload(db, row.upload_id, { state: 'complete', modelId: model.modelId, duplicate: existing !== undefined });
  }).immediate();
  fs.rmSync(file, { force: true });
  return uploadReply(findUpload(db, row.upload_id)!, db);
}
