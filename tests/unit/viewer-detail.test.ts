// When the viewer draws a large model's proxy instead of every triangle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DetailPolicy, MOVING_FRAME_MS, RESTING_FRAME_MS } from '../../renderer/viewer/detail-policy.ts';

test('the first frame is the proxy: a picture at once, and a measure to decide on', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  assert.equal(policy.fullFrameMs(), null);
  assert.equal(policy.useProxy(false, false), true);
  assert.equal(policy.useProxy(false, true), true);
});

test('a fast proxy frame (a GPU) leads to every triangle, moving or not', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  policy.record(true, 16.7);
  assert.ok((policy.fullFrameMs() ?? Infinity) < MOVING_FRAME_MS);
  assert.equal(policy.useProxy(false, false), false);
  assert.equal(policy.useProxy(true, false), false);
});

test('a slow proxy frame (software rendering) keeps the proxy, at rest too unless every triangle is asked for', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  policy.record(true, 300);
  assert.ok((policy.fullFrameMs() ?? 0) > RESTING_FRAME_MS);
  assert.equal(policy.useProxy(false, false), true);
  assert.equal(policy.useProxy(false, true), false);
  assert.equal(policy.useProxy(true, true), true, 'moving still uses the proxy');
});

test('a measured full frame replaces the estimate; the least of each kind counts (warm-up frames are slower)', () => {
  const policy = new DetailPolicy(1_000_000, 100_000);
  policy.record(true, 80);
  assert.equal(policy.useProxy(false, false), true, 'estimated at over half a second');
  policy.record(false, 900);
  policy.record(false, 120);
  assert.equal(policy.fullFrameMs(), 120);
  assert.equal(policy.useProxy(false, false), false, 'every triangle at rest');
  assert.equal(policy.useProxy(true, false), true, 'the proxy while moving');
});
