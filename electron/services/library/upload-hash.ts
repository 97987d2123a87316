// SHA-256 of the files the queue sends: a whole pass before sending (hashFile), or a running hash
// the send itself keeps up to date, so a file is read once. The running one is only right while it
// covers exactly the bytes before the next one sent; when a send stops elsewhere (a reset mid-body,
// a restart, a session started again) it catches up from disk instead of guessing.
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { HostError } from '../api/errors.ts';

const HASH_BUFFER_BYTES = 1024 * 1024;

export async function hashFile(filePath: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await hashRange(filePath, hash, 0, Number.POSITIVE_INFINITY, signal);
  return hash.digest('hex');
}

/** A file's SHA-256 built from the sends of its bytes, in order from offset 0. */
export interface RunningHash {
  /** A hash of bytes [0, offset), for one send that starts there to update; the kept one is untouched. */
  from(offset: number): Promise<Hash>;
  /** A send got through: `hash` (from `from`) now covers bytes [0, offset). */
  advance(hash: Hash, offset: number): void;
  /** The hex SHA-256 of the whole file, reading from disk whatever no send covered. */
  digest(): Promise<string>;
}

export function runningHash(filePath: string, sizeBytes: number, signal: AbortSignal): RunningHash {
  let kept = createHash('sha256');
  let at = 0;
  // A hash cannot go back: behind `at` means starting again from 0. Hashed into a copy, so a
  // failed read leaves the kept hash as it was.
  async function reach(offset: number): Promise<void> {
    if (at === offset) return;
    const start = at < offset ? at : 0;
    const next = at < offset ? kept.copy() : createHash('sha256');
    await hashRange(filePath, next, start, offset, signal);
    kept = next;
    at = offset;
  }
  return {
    async from(offset) {
      await reach(offset);
      return kept.copy();
    },
    advance(hash, offset) {
      kept = hash;
      at = offset;
    },
    async digest() {
      await reach(sizeBytes);
      return kept.copy().digest('hex');
    },
  };
}

/**
 * Feeds bytes [start, end) of a file (up to its end) into `hash` through two reused buffers, one
 * being read while the other is hashed: no garbage per read, so memory stays flat whatever the size.
 */
async function hashRange(filePath: string, hash: Hash, start: number, end: number, signal: AbortSignal): Promise<void> {
  if (start >= end) return;
  let file: FileHandle | undefined;
  try {
    file = await open(filePath, 'r');
    const { size } = await file.stat();
    const last = Math.min(end, size);
    const bytes = Math.max(1, Math.min(HASH_BUFFER_BYTES, last - start));
    const buffers = [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)];
    let position = start;
    const read = (buffer: Buffer) => file!.read(buffer, 0, Math.max(0, Math.min(bytes, last - position)), position);
    let reading = read(buffers[0]);
    for (let turn = 0; ; turn++) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      if (signal.aborted) throw signal.reason;
      position += bytesRead;
      reading = read(buffers[(turn + 1) % 2]);
      hash.update(buffers[turn % 2].subarray(0, bytesRead));
    }
    if (position < end && Number.isFinite(end)) throw new Error(`it is shorter than expected (${position} of ${end} bytes)`);
  } catch (error) {
    if (signal.aborted) throw cancelled(error);
    throw new HostError('FILE_UNREADABLE', `Cannot read ${filePath}: ${(error as Error).message}`, { cause: error });
  } finally {
    await file?.close();
  }
}

export function cancelled(cause: unknown): HostError {
  return cause instanceof HostError && cause.code === 'CANCELLED' ? cause : new HostError('CANCELLED', 'The upload was stopped', { cause });
}
