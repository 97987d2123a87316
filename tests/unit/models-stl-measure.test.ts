// Binary STL's fused copy-and-measure loop (stl-binary-measure.ts) gives exactly what copying the facets
// and then measuring them (a plain copy, MeasureSum.add) gives: the same positions, the same sums in the same
// order, and the same first triangle named when a coordinate is not a number.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MEASURE_SLICE, MeasureSum } from '../../common/models/measure.ts';
import { gatherAndMeasure } from '../../common/models/stl-binary-measure.ts';
import { binaryStl, torus } from '../../scripts/generate-models.ts';

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus', 'stl');

/** The plain copy: each facet's nine floats, one by one, into a separate array. */
function copyFacets(file: Uint8Array, positions: Float32Array, first: number, last: number): void {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  for (let t = first; t < last; t++) for (let k = 0; k < 9; k++) positions[t * 9 + k] = view.getFloat32(96 + t * 50 + k * 4, true);
}

/** Both ways over a whole file, slice by slice as the parser reads it; the fused one in place, as with owned bytes. */
function bothWays(file: Uint8Array, slice = MEASURE_SLICE) {
  const facets = Math.floor((file.length - 84) / 50);
  const plainPositions = new Float32Array(facets * 9);
  const plain = new MeasureSum();
  const fusedBytes = new Uint8Array(file);
  const fusedPositions = new Float32Array(fusedBytes.buffer, 0, facets * 9);
  const fused = new MeasureSum();
  for (let first = 0; first < facets; first += slice) {
    const last = Math.min(facets, first + slice);
    copyFacets(file, plainPositions, first, last);
    plain.add(plainPositions, first, last);
    gatherAndMeasure(new DataView(fusedBytes.buffer), fusedPositions, first, last, fused);
  }
  return { plain: plain.result(), fused: fused.result(), plainPositions, fusedPositions, stoppedAt: plain.firstNonFinite };
}

/** Object.is on each number: -0 and 0 told apart, NaN equal to itself. */
function assertSame(a: unknown, b: unknown, what: string): void {
  assert.deepStrictEqual(a, b, what);
}

test('the corpus\'s binary STL files: the same measures and positions as copying, then measuring', () => {
  const names = readdirSync(CORPUS).filter((name) => name.endsWith('-binary.stl'));
  assert.ok(names.length >= 5);
  for (const name of names) {
    const file = new Uint8Array(readFileSync(join(CORPUS, name)));
    for (const slice of [MEASURE_SLICE, 7]) {
      const { plain, fused, plainPositions, fusedPositions } = bothWays(file, slice);
      assertSame(fused, plain, `${name}, slices of ${slice}`);
      assertSame([...fusedPositions], [...plainPositions], `${name} positions`);
    }
  }
});

test('a coordinate that is not a number is found at the same triangle, wherever it lies', () => {
  const base = binaryStl(torus(60, 40));
  const facets = (base.length - 84) / 50;
  const values = [NaN, Infinity, -Infinity];
  // In the first few (measured on their own), later in the first slice, in a later slice, the very last.
  for (const triangle of [0, 3, 15, 16, 100, 2000, facets - 1]) {
    for (const [k, value] of values.entries()) {
      const file = new Uint8Array(base);
      new DataView(file.buffer).setFloat32(84 + triangle * 50 + 12 + ((triangle + k) % 9) * 4, value, true);
      for (const slice of [MEASURE_SLICE, 500]) {
        const { plain, fused, stoppedAt } = bothWays(file, slice);
        assert.equal(stoppedAt, triangle);
        assertSame(fused, plain, `${value} in triangle ${triangle}, slices of ${slice}`);
      }
    }
  }
});

test('the largest finite coordinates float32 holds are measured the same way, and are not called not-a-number', () => {
  // Float32 tops out near 3.4e38; its squares (1e77) are far inside a double, so no sum overflows.
  const mesh = torus(20, 10);
  const huge = new Float32Array(mesh.vertices.map((v) => v * 2e36));
  const file = binaryStl({ vertices: huge, triangles: mesh.triangles });
  const { plain, fused, stoppedAt } = bothWays(file);
  assert.equal(stoppedAt, -1);
  assert.ok(Number.isFinite(plain.area) && plain.area > 1e70);
  assertSame(fused, plain, 'largest coordinates');
});
