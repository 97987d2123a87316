// Resumable uploads, after tus 1.0 with verb-named paths: CreateUpload opens a session,
// GetUploadOffset says how far it got, AppendUpload adds bytes at exactly that offset (409
// otherwise), CancelUpload ends it. The last append completes it (upload-complete.ts).
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, badRequest, ok, requireObject } from '../http.ts';
import type { Route, RouteContext } from '../router.ts';
import { findModelBySha } from '../store/models.ts';
import { advanceUpload, findUpload, finishUpload, insertUpload } from '../store/uploads.ts';
import type { UploadRow } from '../store/uploads.ts';
import { completeUpload, ownUpload, uploadReply } from '../upload-complete.ts';
import { bodyCutOff, CHUNK_SIZE_LIMIT, partPath, receiveInto, truncateTo } from '../upload-files.ts';
import { contentLength, parseChecksum, parseUploadTarget, requireOctetStream, requireSize, tooLarge } from '../upload-input.ts';
import { requireGuid, wholeParam } from '../validate.ts';
import { requireProjectAccess } from './folders.ts';

const BUSY_WAIT_MS = 2000;

export const createUpload: Route = {
  method: 'POST',
  path: '/Model3D/CreateUpload',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const target = parseUploadTarget(ctx, (key) => body[key]);
    const sizeBytes = requireSize(body.sizeBytes);
    const { db } = ctx.services;
    // The client already knows the hash: the bytes need not travel if the project has them.
    const existing = target.sha256 && !target.allowDuplicate ? findModelBySha(db, target.projectId, target.sha256) : undefined;
    if (existing) {
      const data = { uploadId: null, offset: sizeBytes, sizeBytes, state: 'complete', complete: true, chunkSizeLimit: CHUNK_SIZE_LIMIT, duplicate: true, model: existing };
      return { ...ok(data), headers: { 'Upload-Offset': String(sizeBytes) } };
    }
    const row = insertUpload(db, { kind: 'resumable', userId: ctx.user!.user_id, ...target, sizeBytes });
    return uploadReply(row, db);
  },
};

export const getUploadOffset: Route = {
  method: 'GET',
  path: '/Model3D/GetUploadOffset',
  auth: true,
  body: 'none',
  async handle(ctx) {
    const row = session(ctx);
    // A client asking right after a reset would otherwise see the offset from before the bytes
    // that did arrive were recorded; waiting briefly for that append gives it the true one.
    const running = ctx.services.uploads.busy.get(row.upload_id);
    if (running) await Promise.race([running.catch(() => {}), sleep(BUSY_WAIT_MS)]);
    return uploadReply(findUpload(ctx.services.db, row.upload_id)!, ctx.services.db);
  },
};

export const cancelUpload: Route = {
  method: 'DELETE',
  path: '/Model3D/CancelUpload',
  auth: true,
  body: 'none',
  handle(ctx) {
    const row = session(ctx);
    if (row.state === 'complete') throw new ApiError(409, 'CONFLICT', 'The upload is already complete; delete the model instead');
    if (ctx.services.uploads.busy.has(row.upload_id)) throw busy(row);
    if (row.state === 'open') {
      finishUpload(ctx.services.db, row.upload_id, { state: 'cancelled' });
      ctx.services.uploads.hashes.delete(row.upload_id);
      fs.rmSync(partPath(ctx.services.dataDir, row.upload_id), { force: true });
    }
    return uploadReply(findUpload(ctx.services.db, row.upload_id)!, ctx.services.db);
  },
};

export const appendUpload: Route = {
  method: 'PUT',
  path: '/Model3D/AppendUpload',
  auth: true,
  body: 'stream',
  async handle(ctx) {
    const row = session(ctx);
    if (ctx.query.get('offset') === null) throw badRequest('offset is not set');
    const offset = wholeParam(ctx.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    requireOctetStream(ctx.req);
    const declared = contentLength(ctx.req);
    // A lost answer to the last append: asking again at the end returns the finished session.
    if (row.state === 'complete' && offset === row.size_bytes && !declared) return uploadReply(row, ctx.services.db);
    if (row.state !== 'open') throw new ApiError(409, 'CONFLICT', `The upload is ${row.state}; start a new one`, { 'Upload-Offset': String(row.received_bytes) });
    requireProjectAccess(ctx, row.project_id);
    if (ctx.services.uploads.busy.has(row.upload_id)) throw busy(row);
    if (offset !== row.received_bytes) {
      throw new ApiError(409, 'CONFLICT', `offset ${offset} does not match the upload's offset ${row.received_bytes}`, { 'Upload-Offset': String(row.received_bytes) });
    }
    const remaining = row.size_bytes - offset;
    if (declared !== undefined && declared > CHUNK_SIZE_LIMIT) throw tooLarge();
    if (declared !== undefined && declared > remaining) throw badRequest(`The body (${declared} bytes) goes past the end of the upload (${remaining} bytes remain)`);
    const checksum = parseChecksum(ctx.req.headers['upload-checksum']);
    const running = append(ctx, row, offset, Math.min(remaining, CHUNK_SIZE_LIMIT), checksum);
    ctx.services.uploads.busy.set(row.upload_id, running);
    try {
      return await running;
    } finally {
      ctx.services.uploads.busy.delete(row.upload_id);
    }
  },
};

async function append(ctx: RouteContext, row: UploadRow, offset: number, maxBytes: number, checksum: string | undefined) {
  const { db, dataDir, uploads } = ctx.services;
  const file = partPath(dataDir, row.upload_id);
  const running = runningHash(uploads.hashes.get(row.upload_id), offset);
  // With a checksum the chunk may yet be refused, so the running hash must be able to step back.
  const before = checksum && running ? running.copy() : undefined;
  const chunkHash = checksum ? createHash('sha256') : undefined;
  const received = await receiveInto(file, offset, ctx.stream, maxBytes, (chunk) => {
    running?.update(chunk);
    chunkHash?.update(chunk);
  });
  // Without a checksum, what arrived before a reset is kept (as tus does): the resume then costs nothing.
  const refused = checksum !== undefined && (received.failure !== undefined || received.tooLarge || chunkHash!.digest('base64') !== checksum);
  const kept = refused ? 0 : received.written;
  if (refused) await truncateTo(file, offset);
  advanceUpload(db, row.upload_id, offset + kept, received.written);
  const hash = refused ? before : running;
  if (hash) uploads.hashes.set(row.upload_id, { hash, at: offset + kept });
  if (received.failure) throw bodyCutOff(received.failure);
  if (received.tooLarge) throw tooLarge();
  if (refused) throw new ApiError(460, 'INCORRECT_PARAMETERS', 'The chunk does not match its Upload-Checksum; send it again', { 'Upload-Offset': String(offset) });
  const now = findUpload(db, row.upload_id)!;
  if (now.received_bytes < now.size_bytes) return uploadReply(now, db);
  return completeUpload(ctx.services, now, file, hash?.digest('hex'));
}

/** The running hash if it covers exactly the bytes before `offset`; a fresh one at 0; else none. */
function runningHash(kept: { hash: Hash; at: number } | undefined, offset: number): Hash | undefined {
  if (kept && kept.at === offset) return kept.hash;
  return offset === 0 ? createHash('sha256') : undefined;
}

function session(ctx: RouteContext): UploadRow {
  const row = ownUpload(ctx, requireGuid(ctx.query.get('uploadId'), 'Upload id'));
  if (row.state === 'open' && row.expires_at * 1000 < Date.now()) {
    finishUpload(ctx.services.db, row.upload_id, { state: 'cancelled', error: 'Expired after a day without activity' });
    fs.rmSync(partPath(ctx.services.dataDir, row.upload_id), { force: true });
    throw new ApiError(404, 'NOT_FOUND', `Upload ${row.upload_id} has expired`);
  }
  return row;
}

function busy(row: UploadRow): ApiError {
  return new ApiError(409, 'CONFLICT', 'Another request is appending to this upload; retry shortly', { 'Retry-After': '1', 'Upload-Offset': String(row.received_bytes) });
}

export const UPLOAD_ROUTES: readonly Route[] = [createUpload, getUploadOffset, appendUpload, cancelUpload];
