// When the viewer draws a large model's proxy instead of every triangle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DetailPolicy, MOVING_FRAME_MS, RESTING_FRAME_MS } from '../../renderer/viewer/detail-policy.ts';

test('the first frames are the proxy: a picture at once, and a warm frame to decide on', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  assert.equal(policy.fullFrameMs(), null);
  assert.equal(policy.useProxy(false, false), true);
  // The first frame also compiled the shaders and uploaded the buffers: 60 ms on a GPU that then draws
  // every frame in a refresh. It is not taken for the proxy's cost (it estimated 877 ms for every triangle).
  policy.record(true, 60);
  assert.equal(policy.fullFrameMs(), null);
  assert.equal(policy.wantsWarmFrame(true), true);
  assert.equal(policy.useProxy(false, false), true);
  policy.record(true, 16.7);
  assert.equal(policy.wantsWarmFrame(true), false);
  assert.equal(policy.useProxy(false, false), false, 'every triangle, once a warm frame says the GPU can');
});

test('a fast proxy frame (a GPU) leads to every triangle, moving or not', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  policy.record(true, 40);
  policy.record(true, 16.7);
  assert.ok((policy.fullFrameMs() ?? Infinity) < MOVING_FRAME_MS);
  assert.equal(policy.useProxy(false, false), false);
  assert.equal(policy.useProxy(true, false), false);
});

test('a slow proxy frame (software rendering) keeps the proxy, at rest too unless every triangle is asked for', () => {
  const policy = new DetailPolicy(2_000_000, 100_000);
  policy.record(true, 700);
  policy.record(true, 300);
  assert.ok((policy.fullFrameMs() ?? 0) > RESTING_FRAME_MS);
  assert.equal(policy.useProxy(false, false), true);
  assert.equal(policy.useProxy(false, true), false);
  assert.equal(policy.useProxy(true, true), true, 'moving still uses the proxy');
});

test('a warm full frame replaces the estimate; the least of the warm ones counts', () => {
  const policy = new DetailPolicy(1_000_000, 100_000);
  policy.record(true, 200);
  policy.record(true, 80);
  assert.equal(policy.useProxy(false, false), true, 'estimated at over half a second');
  policy.record(false, 900);
  assert.equal(policy.fullFrameMs(), 647, 'a first frame of every triangle does not replace a warm estimate');
  policy.record(false, 120);
  policy.record(false, 300);
  assert.equal(policy.fullFrameMs(), 120);
  assert.equal(policy.useProxy(false, false), false, 'every triangle at rest');
  assert.equal(policy.useProxy(true, false), true, 'the proxy while moving');
});
