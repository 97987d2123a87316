import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextChunkBytes } from '../../electron/services/library/upload-job.ts';

const MiB = 1024 * 1024;
const adaptive = { chunkBytes: 16 * MiB, maxChunkBytes: 64 * MiB };

test('on a fast link chunks grow to the most the service takes in one append', () => {
  // 16 MiB in 70 ms is about 240 MB/s: three seconds of that is far above the cap.
  assert.equal(nextChunkBytes(adaptive, 16 * MiB, 70), 64 * MiB);
});

test('on a slow link chunks keep to a few seconds of sending, never below the first size', () => {
  // 16 MiB in 8 s is 2 MiB/s: three seconds is 6 MiB, so the floor holds.
  assert.equal(nextChunkBytes(adaptive, 16 * MiB, 8_000), 16 * MiB);
  // 16 MiB in 1.5 s is about 10.7 MiB/s: three seconds is about 32 MiB.
  const middle = nextChunkBytes(adaptive, 16 * MiB, 1_500);
  assert.ok(middle > 30 * MiB && middle < 34 * MiB, String(middle));
});

test('a size the caller fixed stays fixed', () => {
  assert.equal(nextChunkBytes({ chunkBytes: 64 * 1024, maxChunkBytes: 64 * 1024 }, 64 * 1024, 1), 64 * 1024);
});
