// Streams one byte range of a file to the service: disk → socket in 1 MiB reads through a few
// reused buffers, never the whole file in memory, SHA-256 updated on the way (one synchronous
// update per read: at ~1.6 GB/s it costs less than the socket takes for the same bytes). got,
// not fetch: Node's fetch buffers a streamed body whole. Failures become HostErrors as in transport.ts.
import type { Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import got, { RequestError, TimeoutError } from 'got';
import { parseRetryAfter } from './backoff.ts';
import { HostError } from './errors.ts';
import type { HttpResponse } from './transport.ts';
import { header, unreachable } from './transport.ts';

export const READ_CHUNK_BYTES = 1024 * 1024;
// Buffers in flight at once: enough to keep the socket busy while the next read and hash happen.
const POOL_BUFFERS = 4;
// Slowest line an upload must still finish on before timing out: 256 KiB/s, plus a fixed 30 s.
const SLOWEST_BYTES_PER_MS = 256;
// A silent socket this long is a dead one, whatever the size of the body.
const IDLE_MS = 60_000;
// After the last byte, the service hashes and checks the file; 512 MiB takes seconds, not minutes.
const RESPONSE_MS = 120_000;

export interface StreamUpload {
  method: 'PUT' | 'POST';
  /** full URL, query included */
  url: string;
  headers: Record<string, string>;
  filePath: string;
  /** first byte to send */
  start: number;
  /** one past the last byte to send */
  end: number;
  /** updated with every byte sent, in order */
  hash?: Hash;
  signal?: AbortSignal;
  /** bytes of this range read and handed to the socket so far */
  onProgress?: (bytesSent: number) => void;
  /** overrides the size-scaled send timeout */
  timeoutMs?: number;
}

export interface StreamUploadResult extends HttpResponse {
  /** bytes of the range that left the file for the socket (all of them unless the exchange failed) */
  bytesSent: number;
}

export function uploadTimeoutMs(bytes: number): number {
  return 30_000 + Math.ceil(bytes / SLOWEST_BYTES_PER_MS);
}

export async function streamFile(upload: StreamUpload): Promise<StreamUploadResult> {
  const length = upload.end - upload.start;
  const request = got.stream(upload.url, {
    method: upload.method,
    headers: { accept: 'application/json', 'content-type': 'application/octet-stream', 'content-length': String(length), ...upload.headers },
    timeout: { connect: 15_000, socket: IDLE_MS, send: upload.timeoutMs ?? uploadTimeoutMs(length), response: RESPONSE_MS },
    signal: upload.signal,
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  });
  const outcome = settle(request);
  const progress = { sent: 0 };
  try {
    const pumped = await pump(upload, request, outcome, progress);
    const response = await outcome.response;
    // Answered: every buffer back in `free` has been taken by the socket and can be reused.
    recycle(pumped.free);
    // The service answered before taking the whole body (an early 401, 409 or 413): this
    // connection still owes it bytes, so it cannot be reused.
    if (progress.sent < length) request.destroy();
    return { ...response, bytesSent: progress.sent };
  } catch (error) {
    request.destroy();
    throw uploadError(upload, error, progress.sent);
  }
}

type GotStream = ReturnType<typeof got.stream>;

interface Outcome {
  /** the answer with its body read as text; rejects if the exchange fails */
  response: Promise<HttpResponse>;
  /** resolves (never rejects) once the service has answered or the exchange has failed */
  ended: Promise<void>;
  /** true from then on: no more body is worth sending */
  done: boolean;
}

function settle(request: GotStream): Outcome {
  const outcome = { done: false } as Outcome;
  let end: () => void = () => {};
  outcome.ended = new Promise<void>((resolve) => (end = resolve));
  outcome.response = new Promise<HttpResponse>((resolve, reject) => {
    // `on`, not `once`: a destroyed request can report more than one error.
    request.on('error', (error) => {
      outcome.done = true;
      end();
      reject(error);
    });
    request.once('response', (response: { statusCode: number; headers: HttpResponse['headers'] }) => {
      outcome.done = true;
      end();
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.once('end', () =>
        resolve({
          status: response.statusCode,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: response.headers,
          retryAfterSeconds: parseRetryAfter(header(response.headers['retry-after'])),
        }),
      );
    });
  });
  // Awaited only after the body is sent; until then a failure must not count as unhandled.
  outcome.response.catch(() => {});
  return outcome;
}

/**
 * Sends the byte range through a few reused buffers: a buffer goes back to the pool when the
 * socket has taken its bytes (the write callback), so memory stays at POOL × 1 MiB whatever the
 * file size, and no garbage piles up for the collector. `progress.sent` counts the bytes handed over.
 */
async function pump(upload: StreamUpload, request: GotStream, outcome: Outcome, progress: { sent: number }): Promise<{ free: Buffer[] }> {
  // Sized to the range: a 5 KB file should not allocate 4 MiB for its one read.
  const length = upload.end - upload.start;
  const bufferBytes = Math.max(1, Math.min(READ_CHUNK_BYTES, length));
  const count = Math.min(POOL_BUFFERS, Math.ceil(length / bufferBytes));
  const free: Buffer[] = Array.from({ length: count }, () => (bufferBytes === READ_CHUNK_BYTES && spare.pop()) || Buffer.allocUnsafe(bufferBytes));
  let waiting: (() => void) | undefined;
  const release = (buffer: Buffer) => {
    free.push(buffer);
    waiting?.();
  };
  const file = await open(upload.filePath, 'r');
  let position = upload.start;
  try {
    while (position < upload.end && !outcome.done) {
      if (free.length === 0) await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), outcome.ended]);
      if (outcome.done) break;
      const buffer = free.pop()!;
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, upload.end - position), position);
      if (bytesRead === 0) throw Object.assign(new Error(`${upload.filePath} is shorter than expected`), { code: 'FILE_CHANGED' });
      const bytes = buffer.subarray(0, bytesRead);
      upload.hash?.update(bytes);
      position += bytesRead;
      progress.sent = position - upload.start;
      upload.onProgress?.(progress.sent);
      request.write(bytes, () => release(buffer));
    }
  } finally {
    await file.close();
  }
  if (!outcome.done) request.end();
  return { free };
}

/**
 * Full-size buffers the socket is done with, kept for the next chunk or file: a 250 MB file in
 * 16 MiB chunks would otherwise leave 64 MiB of garbage for the collector to notice.
 */
const spare: Buffer[] = [];
const MAX_SPARE = 16;

function recycle(buffers: Buffer[]): void {
  for (const buffer of buffers) if (buffer.length === READ_CHUNK_BYTES && spare.length < MAX_SPARE) spare.push(buffer);
}

function uploadError(upload: StreamUpload, error: unknown, bytesSent: number): HostError {
  const where = new URL(upload.url).host;
  const details = { ambiguous: true, bytesSent };
  if (upload.signal?.aborted) return new HostError('CANCELLED', 'The upload was stopped', { cause: error, details });
  if (error instanceof TimeoutError) {
    return new HostError('TIMEOUT', `The upload to ${where} stalled (${error.event} timeout)`, { cause: error, details });
  }
  const code = (error as { code?: string }).code;
  if (code === 'FILE_CHANGED') return new HostError('FILE_INVALID', (error as Error).message, { cause: error, details: { ...details, ambiguous: false } });
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'EPERM') {
    return new HostError('FILE_UNREADABLE', `Cannot read ${upload.filePath} (${code})`, { cause: error, details: { ...details, ambiguous: false } });
  }
  const refused = unreachable(where, code, error, details);
  if (refused) return refused;
  const message = error instanceof RequestError || error instanceof Error ? error.message : String(error);
  return new HostError('OFFLINE', `The upload to ${where} broke off`, { cause: error, details: { ...details, systemCode: code ?? message } });
}
