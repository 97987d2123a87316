import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { hashFile, runningHash } from '../../electron/services/library/upload-hash.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printdesk-hash-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// Not a multiple of the 1 MiB read size, so ranges end mid-buffer.
const bytes = randomBytes(3 * 1024 * 1024 + 12_345);
const file = path.join(dir, 'model.stl');
fs.writeFileSync(file, bytes);
const expected = createHash('sha256').update(bytes).digest('hex');
const signal = new AbortController().signal;

/** What a send of [start, end) does to the hash it was given. */
async function send(hash: ReturnType<typeof runningHash>, start: number, end: number) {
  const copy = await hash.from(start);
  copy.update(bytes.subarray(start, end));
  return copy;
}

test('hashFile and a running hash fed by sends back to back agree with a one-pass hash', async () => {
  assert.equal(await hashFile(file, signal), expected);
  const running = runningHash(file, bytes.length, signal);
  for (let start = 0; start < bytes.length; start += 700_000) {
    const end = Math.min(bytes.length, start + 700_000);
    running.advance(await send(running, start, end), end);
  }
  assert.equal(await running.digest(), expected);
});

test('a send cut short leaves no bytes in the kept hash, and a resume further on catches up from disk', async () => {
  const running = runningHash(file, bytes.length, signal);
  running.advance(await send(running, 0, 1_000_000), 1_000_000);
  // Cut off after 300 KB of the next chunk, which the service kept only 123,456 bytes of: not advanced.
  await send(running, 1_000_000, 1_300_000);
  const resumed = await send(running, 1_123_456, 2_000_000);
  running.advance(resumed, 2_000_000);
  assert.equal(await running.digest(), expected, 'the rest read from disk');
});

test('an offset behind the hash (a session started again) starts over, and a restart catches up from 0', async () => {
  const running = runningHash(file, bytes.length, signal);
  running.advance(await send(running, 0, 2_000_000), 2_000_000);
  running.advance(await send(running, 500_000, bytes.length), bytes.length);
  assert.equal(await running.digest(), expected);

  const restarted = runningHash(file, bytes.length, signal);
  restarted.advance(await send(restarted, 2_500_000, bytes.length), bytes.length);
  assert.equal(await restarted.digest(), expected);
  assert.equal(await restarted.digest(), expected, 'digest can be asked again');
});

test('a file shorter than the range asked for is an error, not a wrong hash', async () => {
  const running = runningHash(file, bytes.length + 10, signal);
  await assert.rejects(running.digest(), (error: Error & { code?: string }) => error.code === 'FILE_UNREADABLE' && /shorter/.test(error.message));
});
