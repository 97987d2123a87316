// A binary STL read in parts (printdesk inspect's way, its positions never held whole) gives the very
// facts the whole-file reader gives, and leaves to that reader whatever it would say is wrong.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { binaryStlFactsInParts, parseModel, type ReadInto } from '../../common/models/index.ts';
import { binaryStl, torusWith } from '../../scripts/generate-models.ts';
import { CORPUS } from '../corpus.ts';

const reader = (bytes: Uint8Array): ReadInto => (offset, into) => {
  const part = bytes.subarray(offset, offset + into.length);
  into.set(part);
  return part.length;
};
const inParts = (bytes: Uint8Array) => binaryStlFactsInParts(bytes.subarray(0, 84), bytes.length, reader(bytes));

test('the corpus\'s binary STL files and a 100K-triangle torus read in parts give the whole-file reader\'s facts', () => {
  const files = readdirSync(join(CORPUS, 'stl')).filter((name) => name.endsWith('-binary.stl')).map((name) => readFileSync(join(CORPUS, 'stl', name)) as Uint8Array);
  for (const bytes of [...files, binaryStl(torusWith(100_000))]) {
    const whole = parseModel(bytes.slice(), 'model.stl').facts;
    assert.deepEqual(inParts(bytes), whole);
  }
});

test('what the whole-file reader must say is left to it: a count that lies, a NaN, a ZIP, nothing with area', () => {
  const good = binaryStl(torusWith(1_000));
  const lying = good.slice();
  new DataView(lying.buffer).setUint32(80, 999_999, true);
  const nan = good.slice();
  new DataView(nan.buffer).setFloat32(84 + 50 * 700 + 16, Number.NaN, true);
  const flat = binaryStl({ vertices: new Float32Array(9), triangles: new Uint32Array([0, 1, 2, 0, 1, 2]) });
  const zip = good.slice();
  zip.set([0x50, 0x4b, 3, 4]);
  for (const bytes of [lying, nan, flat, zip, good.subarray(0, 60), good.subarray(0, good.length - 7)]) assert.equal(inParts(bytes), null);
});
