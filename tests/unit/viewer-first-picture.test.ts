// The host's first picture becomes a model sent as its proxy alone, its arrays in buffers of their own
// (a stage in a worker takes them over), wherever in a message the bytes came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pictureModel, transferablePicture } from '../../renderer/viewer/first-picture.ts';
import { packTriangles } from '../../common/models/packed-triangles.ts';
import type { ModelFacts } from '../../common/models/index.ts';

const facts = { triangles: 400_000, topology: 'pending' } as ModelFacts;
const square = new Float32Array([0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 0, 0, 10, 10, 0, 0, 10, 0]);

/** A proxy's triangles as a soup, whether it came indexed or not. */
function soupOf(proxy: { positions: Float32Array; indices?: Uint32Array } | undefined): Float32Array {
  if (!proxy?.indices) return proxy?.positions ?? new Float32Array(0);
  return Float32Array.from([...proxy.indices].flatMap((id) => [...proxy.positions.subarray(id * 3, id * 3 + 3)]));
}

test('a picture is drawn as a proxy whose every triangle follows, each of its points once', () => {
  const model = pictureModel({ format: 'stl-binary', facts, ...packTriangles(square) });
  assert.equal(model.positions.length, 0);
  assert.equal(model.proxy?.triangles, 2);
  assert.deepEqual(soupOf(model.proxy), square);
  assert.equal(model.proxy?.positions.length, 4 * 3, 'the square has 4 points');
  assert.deepEqual([...(model.proxy?.indices ?? [])], [0, 1, 2, 0, 2, 3]);
  assert.equal(model.facts, facts);
  assert.equal(model.proxy?.colors, undefined);
});

test('bytes inside a larger message, at any offset, are read where they lie and copied out into buffers of their own', () => {
  const packed = packTriangles(square.subarray(0, 9));
  const message = new Uint8Array(3 + packed.points.byteLength + packed.corners.byteLength + 12);
  message.set(packed.points, 3);
  message.set(packed.corners, 3 + packed.points.byteLength);
  const colorsAt = 3 + packed.points.byteLength + packed.corners.byteLength;
  message.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], colorsAt);
  const model = pictureModel({
    format: '3mf',
    facts,
    box: packed.box,
    triangles: 1,
    points: message.subarray(3, 3 + packed.points.byteLength),
    corners: message.subarray(3 + packed.points.byteLength, colorsAt),
    colors: message.subarray(colorsAt),
  });
  // With colours, a corner each: drawn as its soup.
  assert.deepEqual(model.proxy?.positions, square.subarray(0, 9));
  assert.equal(model.proxy?.indices, undefined);
  assert.deepEqual([...(model.proxy?.colors ?? [])], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.equal(model.proxy?.colors?.buffer.byteLength, 12);
});

test('a picture whose packing does not hold together is drawn as an empty proxy: the file draws the model', () => {
  const packed = packTriangles(square);
  for (const corners of [packed.corners.subarray(0, 2), new Uint8Array([0, 40, 0, 0, 0, 0])]) {
    const model = pictureModel({ format: 'stl-binary', facts, ...packed, corners });
    assert.equal(model.proxy?.triangles, 0);
    assert.equal(model.proxy?.positions.length, 0);
    assert.equal(model.facts, facts, 'its measures still stand');
  }
});

test("a picture sent to a worker's stage goes in buffers of its own, each once", () => {
  const packed = packTriangles(square);
  const message = new Uint8Array(1 + packed.points.byteLength + packed.corners.byteLength);
  message.set(packed.points, 1);
  message.set(packed.corners, 1 + packed.points.byteLength);
  const [sent, buffers] = transferablePicture({ format: 'stl-binary', facts, box: packed.box, triangles: 2, points: message.subarray(1, 1 + packed.points.byteLength), corners: message.subarray(1 + packed.points.byteLength) });
  assert.equal(buffers.length, 2);
  assert.ok(!buffers.includes(message.buffer), 'not the message holding them');
  assert.deepEqual(soupOf(pictureModel(sent).proxy), square);
});
