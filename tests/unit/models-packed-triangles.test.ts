// A first picture's triangles, packed for the way to the window: every corner back where it was, within
// a step of its axis (the box over 65,535), in a fraction of the bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseModel, simplify } from '../../common/models/index.ts';
import { packTriangles, unpackTriangles } from '../../common/models/packed-triangles.ts';
import { CORPUS } from '../corpus.ts';

function assertWithinStep(back: Float32Array, original: Float32Array, box: number[]) {
  assert.equal(back.length, original.length);
  for (let i = 0; i < original.length; i++) {
    const step = (box[(i % 3) + 3] - box[i % 3]) / 65535;
    if (Math.abs(back[i] - original[i]) > step / 2 + 1e-6) assert.fail(`corner value ${i} moved by ${Math.abs(back[i] - original[i])}, more than half a step (${step / 2})`);
  }
}

test("a model's proxy comes back within half a step, in under a third of its floats' bytes", () => {
  const model = parseModel(new Uint8Array(readFileSync(join(CORPUS, 'obj', 'stanford-bunny.obj'))), 'bunny.obj', { skipTopology: true });
  const proxy = simplify(model, 20_000) ?? { positions: model.positions };
  const packed = packTriangles(proxy.positions);
  assertWithinStep(unpackTriangles(packed), proxy.positions, packed.box);
  assert.ok(packed.points.byteLength + packed.corners.byteLength < proxy.positions.byteLength / 3, `${packed.points.byteLength + packed.corners.byteLength} bytes`);
});

test('corners far apart in the list, backwards and forwards, and a flat model', () => {
  // 3,000 points at random, each triangle of three of them: differences of thousands, either way.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const points = Array.from({ length: 3000 }, () => [random() * 50 - 25, random() * 8, 0.5]);
  const positions = new Float32Array(20_000 * 9);
  for (let c = 0; c < 60_000; c++) positions.set(points[Math.floor(random() * points.length)], c * 3);
  const packed = packTriangles(positions);
  assert.equal(packed.points.byteLength, 3000 * 6, 'each point once');
  assert.equal(packed.box[2], packed.box[5], 'flat in z');
  assertWithinStep(unpackTriangles(packed), positions, packed.box);
  assert.equal(packTriangles(new Float32Array(0)).triangles, 0);
  assert.deepEqual(unpackTriangles(packTriangles(new Float32Array(0))), new Float32Array(0));
});
