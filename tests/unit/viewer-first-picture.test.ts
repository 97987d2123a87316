// The host's first picture becomes a model sent as its proxy alone, its arrays in buffers of their own
// (a stage in a worker takes them over), wherever in a message the bytes came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pictureModel } from '../../renderer/viewer/first-picture.ts';
import type { ModelFacts } from '../../common/models/index.ts';

const facts = { triangles: 400_000, topology: 'pending' } as ModelFacts;

test('a picture is drawn as a proxy whose every triangle follows', () => {
  const floats = new Float32Array(18).map((_, i) => i / 2);
  const model = pictureModel({ format: 'stl-binary', facts, positions: new Uint8Array(floats.buffer) });
  assert.equal(model.positions.length, 0);
  assert.equal(model.proxy?.triangles, 2);
  assert.deepEqual(model.proxy?.positions, floats);
  assert.equal(model.facts, facts);
  assert.equal(model.proxy?.colors, undefined);
});

test('bytes inside a larger message, at any offset, are copied out into buffers of their own', () => {
  const floats = new Float32Array(9).map((_, i) => i + 0.25);
  const message = new Uint8Array(3 + floats.byteLength + 12);
  message.set(new Uint8Array(floats.buffer), 3);
  message.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 3 + floats.byteLength);
  const model = pictureModel({ format: '3mf', facts, positions: message.subarray(3, 3 + floats.byteLength), colors: message.subarray(3 + floats.byteLength) });
  assert.deepEqual(model.proxy?.positions, floats);
  assert.equal(model.proxy?.positions.buffer.byteLength, floats.byteLength);
  assert.deepEqual([...(model.proxy?.colors ?? [])], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.equal(model.proxy?.colors?.buffer.byteLength, 12);
});
