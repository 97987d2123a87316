// The bytes of uploads on disk: bodies streamed into part files at an offset (never held whole in
// memory), hashing, and the sweep that removes what a crash or expiry left.
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from './db/open.ts';
import { ApiError } from './http.ts';
import { PRIVATE_DIR, PRIVATE_FILE_MODE } from './private-files.ts';
import { expiredUploads, finishUpload } from './store/uploads.ts';

export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
export const CHUNK_SIZE_LIMIT = 64 * 1024 * 1024;
// Writes are gathered to about this size: one syscall per socket read would cost more than the copy.
const WRITE_BATCH = 1024 * 1024;

/** Per-sandbox state of uploads in progress: appends running now, and running hashes of contiguous bytes. */
export interface UploadRuntime {
  /** the append running for a session, settling when it is done */
  busy: Map<string, Promise<unknown>>;
  /** hash of bytes [0, at) of a session, kept while appends arrive in order, so completion need not re-read */
  hashes: Map<string, { hash: Hash; at: number }>;
}

export function createUploadRuntime(): UploadRuntime {
  return { busy: new Map(), hashes: new Map() };
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function partPath(dataDir: string, uploadId: string): string {
  return path.join(uploadsDir(dataDir), `${uploadId}.part`);
}

export interface Received {
  /** bytes written (and synced) from the body */
  written: number;
  /** the body broke off (reset, abort) after `written` bytes */
  failure?: unknown;
  /** the body went past `maxBytes`; the connection has been dropped */
  tooLarge?: boolean;
}

/**
 * Writes `body` into `file` at `offset`, first dropping anything past `offset` (bytes a crash left
 * unrecorded). What arrived before a failure is still written and synced, so it can be kept.
 */
export async function receiveInto(file: string, offset: number, body: Readable, maxBytes: number, onWritten?: (chunk: Buffer) => void): Promise<Received> {
  fs.mkdirSync(path.dirname(file), PRIVATE_DIR);
  const handle = await open(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE);
  const result: Received = { written: 0 };
  try {
    const { size } = await handle.stat();
    if (size < offset) throw new Error(`The stored part of this upload is shorter (${size} bytes) than its offset (${offset})`);
    if (size > offset) await handle.truncate(offset);
    // Double buffering: one batch is written while the next is read from the socket, so the
    // sender is not stalled for every disk write. Writes stay in order, one at a time.
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let queued = 0;
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      if (batchBytes === 0) return;
      const buffers = batch;
      const bytes = batchBytes;
      const position = offset + queued;
      queued += bytes;
      batch = [];
      batchBytes = 0;
      writing = writeAll(handle, buffers, position).then(() => {
        result.written += bytes;
        if (onWritten) for (const chunk of buffers) onWritten(chunk);
      });
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (queued + batchBytes + chunk.length > maxBytes) {
          result.tooLarge = true;
          break;
        }
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= WRITE_BATCH) await flush();
      }
    } catch (error) {
      result.failure = error;
    }
    await flush();
    await writing;
    await handle.sync();
  } finally {
    await handle.close();
  }
  return result;
}

async function writeAll(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let { bytesWritten } = await handle.writev(buffers, position);
  const total = buffers.reduce((sum, b) => sum + b.length, 0);
  // writev may write less than asked (rare, on full disks or signals); finish the rest plainly.
  while (bytesWritten < total) {
    const rest = Buffer.concat(buffers).subarray(bytesWritten);
    bytesWritten += (await handle.write(rest, 0, rest.length, position + bytesWritten)).bytesWritten;
  }
}

/** A body that broke off: nobody will read the answer, but the log should not call it a server fault. */
export function bodyCutOff(failure: unknown): ApiError {
  return new ApiError(400, 'INCORRECT_PARAMETERS', `The request body ended early (${(failure as Error)?.message ?? failure})`);
}

export async function truncateTo(file: string, size: number): Promise<void> {
  await fs.promises.truncate(file, size).catch(() => {});
}

export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * At start: expired sessions are closed, and part files no open session owns (finished sessions,
 * whole-file uploads cut off by a crash) are removed.
 */
export function sweepUploads(db: Db, dataDir: string): void {
  for (const uploadId of expiredUploads(db)) finishUpload(db, uploadId, { state: 'cancelled', error: 'Expired after a day without activity' });
  db.prepare("UPDATE uploads SET state = 'failed', error = 'Interrupted by a restart of the service' WHERE kind = 'whole' AND state = 'open'").run();
  const dir = uploadsDir(dataDir);
  if (!fs.existsSync(dir)) return;
  const live = new Set((db.prepare("SELECT upload_id FROM uploads WHERE state = 'open' AND kind = 'resumable'").all() as { upload_id: string }[]).map((r) => r.upload_id));
  for (const name of fs.readdirSync(dir)) {
    if (!live.has(name.replace(/\.part$/, ''))) fs.rmSync(path.join(dir, name), { force: true });
  }
}
