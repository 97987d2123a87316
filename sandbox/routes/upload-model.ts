// POST /Model3D/UploadModel: the whole file in one streamed body, for clients without resume.
// The body goes to disk as it arrives (hashed on the way), never whole into memory.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { badRequest, ok } from '../http.ts';
import type { Route } from '../router.ts';
import { findModelBySha } from '../store/models.ts';
import { advanceUpload, findUpload, finishUpload, insertUpload } from '../store/uploads.ts';
import { completeUpload } from '../upload-complete.ts';
import { bodyCutOff, CHUNK_SIZE_LIMIT, MAX_UPLOAD_BYTES, receiveInto, uploadsDir } from '../upload-files.ts';
import { contentLength, parseUploadTarget, requireOctetStream, tooLarge } from '../upload-input.ts';
import path from 'node:path';

export const uploadModel: Route = {
  method: 'POST',
  path: '/Model3D/UploadModel',
  auth: true,
  body: 'stream',
  async handle(ctx) {
    requireOctetStream(ctx.req);
    const declared = contentLength(ctx.req);
    if (declared !== undefined && declared > MAX_UPLOAD_BYTES) throw tooLarge();
    const target = parseUploadTarget(ctx, (key) => ctx.query.get(key) ?? undefined);
    const { db, dataDir } = ctx.services;
    const existing = target.sha256 && !target.allowDuplicate ? findModelBySha(db, target.projectId, target.sha256) : undefined;
    if (existing) {
      const size = declared ?? existing.sizeBytes;
      return { ...ok({ uploadId: null, offset: size, sizeBytes: size, state: 'complete', complete: true, chunkSizeLimit: CHUNK_SIZE_LIMIT, duplicate: true, model: existing }) };
    }
    // Not recorded until the bytes are in: a crash mid-body leaves only a file the start-up sweep removes.
    const file = path.join(uploadsDir(dataDir), `whole-${randomUUID()}.part`);
    const hash = createHash('sha256');
    const received = await receiveInto(file, 0, ctx.stream, MAX_UPLOAD_BYTES, (chunk) => hash.update(chunk));
    if (received.failure || received.tooLarge || received.written === 0) {
      fs.rmSync(file, { force: true });
      if (received.failure) throw bodyCutOff(received.failure);
      if (received.tooLarge) throw tooLarge();
      throw badRequest('The file is empty');
    }
    const row = insertUpload(db, { kind: 'whole', userId: ctx.user!.user_id, ...target, sizeBytes: received.written });
    advanceUpload(db, row.upload_id, received.written, received.written);
    try {
      return await completeUpload(ctx.services, findUpload(db, row.upload_id)!, file, hash.digest('hex'));
    } catch (error) {
      if (findUpload(db, row.upload_id)?.state === 'open') finishUpload(db, row.upload_id, { state: 'failed', error: String(error) });
      fs.rmSync(file, { force: true });
      throw error;
    }
  },
};
