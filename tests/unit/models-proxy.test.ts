// The lighter copy a picture is drawn from: about the asked number of triangles, the same shape (box,
// volume and area close to the model's), the model's colours, and nothing at all for a model that is
// already small enough.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseModel, pictureOf, simplify, type ParsedModel, type ProxyMesh } from '../../common/models/index.ts';
import { measure } from '../../common/models/measure.ts';
import { binaryStl, obj, torus, type Mesh } from '../../scripts/generate-models.ts';
import { CORPUS } from '../corpus.ts';

function modelOf(bytes: Uint8Array, name: string): ParsedModel {
  return parseModel(bytes, name, { skipTopology: true });
}

/** Within `fraction` of the expected value. */
function near(actual: number, expected: number, fraction: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= Math.abs(expected) * fraction, `${what}: ${actual} is not within ${fraction * 100}% of ${expected}`);
}

function assertSameShape(model: ParsedModel, proxy: ProxyMesh, budget: number): void {
  assert.ok(proxy.triangles >= budget / 4 && proxy.triangles <= budget * 2, `${proxy.triangles} triangles for a budget of ${budget}`);
  assert.equal(proxy.positions.length, proxy.triangles * 9);
  const measured = measure(proxy.positions);
  const { min, max } = model.facts.bounds;
  for (let axis = 0; axis < 3; axis++) {
    // Points become means of the points near them: inside the box, and a cell or so from its faces.
    assert.ok(measured.min[axis] >= min[axis] - 1e-3 && measured.max[axis] <= max[axis] + 1e-3, 'inside the model\'s box');
    near(measured.max[axis] - measured.min[axis], model.facts.size[axis], 0.05, `size along axis ${axis}`);
  }
  near(Math.abs(measured.signedVolume), model.facts.volume, 0.05, 'volume');
  near(measured.area, model.facts.area, 0.1, 'area');
}

const ring: Mesh = torus(400, 250);

test('a triangle soup (binary STL) is clustered to about the budget, keeping its shape', () => {
  const model = modelOf(binaryStl(ring), 'ring.stl');
  assert.equal(model.facts.triangles, 200_000);
  for (const budget of [2_000, 20_000]) {
    const proxy = simplify(model, budget);
    assert.ok(proxy);
    assertSameShape(model, proxy, budget);
    assert.equal(proxy.colors, undefined);
  }
});

test('a vertex table with indices (OBJ) gives the same kind of copy', () => {
  const model = modelOf(obj(ring), 'ring.obj');
  assert.ok(model.indices, 'read as a table and its indices');
  const proxy = simplify(model, 10_000);
  assert.ok(proxy);
  assertSameShape(model, proxy, 10_000);
});

test('a model within the budget is its own picture', () => {
  const model = modelOf(new Uint8Array(readFileSync(join(CORPUS, 'stl', 'rear_case-binary.stl'))), 'rear_case.stl');
  assert.equal(simplify(model, model.facts.triangles), null);
  assert.equal(simplify(model, Math.round(model.facts.triangles * 0.6)), null, 'a proxy that saves under half is not worth it');
  assert.equal(pictureOf(model).positions, model.positions);
});

test('colours come from the corners of the triangles kept', () => {
  const model = modelOf(new Uint8Array(readFileSync(join(CORPUS, '3mf', 'dodeca_chain_loop_color.3mf'))), 'chain.3mf');
  assert.ok(model.colors);
  const proxy = simplify(model, 1_000);
  assert.ok(proxy?.colors);
  assert.equal(proxy.colors.length, proxy.triangles * 12);
  const palette = new Set<number>();
  for (let i = 0; i < model.colors.length; i += 4) palette.add(new DataView(model.colors.buffer, model.colors.byteOffset + i, 4).getUint32(0));
  for (let i = 0; i < proxy.colors.length; i += 4) assert.ok(palette.has(new DataView(proxy.colors.buffer, i, 4).getUint32(0)), 'a colour of the model');
});

/** A flat square of n × n cells at z = 7, far from the origin. */
function sheet(n: number): Mesh {
  const vertices = new Float32Array((n + 1) * (n + 1) * 3);
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) vertices.set([1e5 + i, 1e5 + j, 7], (i * (n + 1) + j) * 3);
  const triangles = new Uint32Array(n * n * 6);
  const at = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0, t = 0; i < n; i++) {
    for (let j = 0; j < n; j++, t += 6) triangles.set([at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1)], t);
  }
  return { vertices, triangles };
}

test('a flat model (no thickness) far from the origin is clustered too', () => {
  const model = modelOf(binaryStl(sheet(200)), 'sheet.stl');
  const proxy = simplify(model, 5_000);
  assert.ok(proxy && proxy.triangles > 1_000 && proxy.triangles <= 10_000, `${proxy?.triangles} triangles`);
  const measured = measure(proxy.positions);
  assert.equal(measured.min[2], 7);
  assert.equal(measured.max[2], 7);
  near(measured.area, model.facts.area, 0.05, 'area');
});

test('pictureOf swaps in the proxy and keeps the facts', () => {
  const model = modelOf(binaryStl(ring), 'ring.stl');
  const proxy = simplify(model, 5_000);
  assert.ok(proxy);
  const picture = pictureOf({ ...model, proxy });
  assert.equal(picture.positions, proxy.positions);
  assert.equal(picture.indices, undefined);
  assert.equal(picture.facts, model.facts);
});

/** Triangles of a proxy whose corners lie further apart than `span`: spikes across the model. */
function spikes(proxy: ProxyMesh, span: number): number {
  let count = 0;
  for (let i = 0; i < proxy.positions.length; i += 9) {
    for (let axis = 0; axis < 3; axis++) {
      const values = [proxy.positions[i + axis], proxy.positions[i + 3 + axis], proxy.positions[i + 6 + axis]];
      if (Math.max(...values) - Math.min(...values) > span) {
        count++;
        break;
      }
    }
  }
  return count;
}

test('a point on the far face of the box stays in the last cell (it wrapped to the far side and drew spikes)', () => {
  // Plate sides for which side / cell rounds just under a whole number of cells while side · (1 / cell)
  // rounds up to it: the far edge's points then fell one cell past the row.
  let tried = 0;
  for (let r = 1; r < 200 && tried < 5; r += 0.37) {
    const side = Math.fround(r);
    for (let m = 3; m < 13; m++) {
      const cell = Math.sqrt((2 * side * side) / (2 * m * m));
      if (((side * (1 / cell)) | 0) < Math.floor(side / cell) + 1) continue;
      const cols = 3 * m;
      const at = (k: number) => (k === cols ? side : Math.fround((side * k) / cols));
      const corners: number[] = [];
      for (let a = 0; a < cols; a++) for (let b = 0; b < cols; b++) corners.push(at(a), at(b), 0, at(a + 1), at(b), 0, at(a + 1), at(b + 1), 0, at(a), at(b), 0, at(a + 1), at(b + 1), 0, at(a), at(b + 1), 0);
      const positions = new Float32Array(corners);
      const facts = { triangles: positions.length / 9, area: side * side, bounds: { min: [0, 0, 0], max: [side, side, 0] } } as unknown as ParsedModel['facts'];
      const proxy = simplify({ positions, facts }, 2 * m * m);
      assert.ok(proxy);
      assert.equal(spikes(proxy, side / 2), 0, `plate ${side} mm, ${m} cells`);
      tried++;
    }
  }
  assert.ok(tried > 0, 'found sides that round so');
});

test('a vertex no triangle uses, far away or just outside, changes nothing (OBJ tables may hold them)', () => {
  const plate = new TextDecoder().decode(obj(sheet(40)));
  const clean = simplify(modelOf(new TextEncoder().encode(plate), 'p.obj'), 400);
  for (const stray of ['v 1e9 0 0\n', 'v 100040 100041 7\n', 'v 12148001792 0 0\n']) {
    const model = modelOf(new TextEncoder().encode(stray + plate.replace(/^f (\d+) (\d+) (\d+)$/gm, (_, a, b, c) => `f ${+a + 1} ${+b + 1} ${+c + 1}`)), 'p.obj');
    const proxy = simplify(model, 400);
    assert.ok(proxy && clean);
    assert.deepEqual(measure(proxy.positions).max, measure(clean.positions).max, stray);
    assert.equal(spikes(proxy, 20), 0, stray);
  }
});

test('coordinates near float32\'s limit (junk files) give a finite proxy', () => {
  // 2e38 mm across: sums of a cell's points' offsets in float32 went past its range.
  const huge = sheet(100);
  huge.vertices = huge.vertices.map((value, i) => (i % 3 === 2 ? value : (value - 1e5) * 2e36));
  const model = modelOf(binaryStl(huge), 'huge.stl');
  const proxy = simplify(model, 2_000);
  assert.ok(proxy);
  assert.ok(proxy.positions.every(Number.isFinite), 'every corner is a finite number');
});
