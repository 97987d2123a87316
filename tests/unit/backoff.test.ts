import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRetryAfter, retryDelayMs } from '../../electron/services/api/backoff.ts';

test('exponential delay doubles per attempt, stays within its jitter band and the cap', () => {
  for (let attempt = 0; attempt < 10; attempt++) {
    const ceiling = Math.min(30_000, 500 * 2 ** attempt);
    assert.equal(retryDelayMs(attempt, undefined, { random: () => 0 }), ceiling / 2);
    assert.equal(retryDelayMs(attempt, undefined, { random: () => 1 }), ceiling);
  }
});

test("the server's Retry-After wins over the client's own schedule", () => {
  assert.equal(retryDelayMs(0, 7, { random: () => 0 }), 7_000);
  assert.ok(retryDelayMs(5, 2, { random: () => 1 }) <= 2_500);
});

test('Retry-After is read as seconds or as an HTTP date, and nonsense is ignored', () => {
  assert.equal(parseRetryAfter('120'), 120);
  const now = Date.parse('2026-11-23T10:00:00Z');
  assert.equal(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now), 30);
  assert.equal(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
});
