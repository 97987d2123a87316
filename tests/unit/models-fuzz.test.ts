// Seeded mutation fuzzing over corpus files: whatever the damage, parseModel returns a model or throws a
// ModelParseError, never anything else, never slowly. The seed is fixed so a failure replays; the failing
// iteration and mutation are in the assertion message.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { isModelParseError, parseModel } from '../../common/models/index.ts';
import { CORPUS } from '../corpus.ts';

const SOURCES = [
  'stl/Cube-ascii.stl', 'stl/Cube-binary.stl', 'stl/Star-ascii.stl', 'stl/Moon-binary.stl', 'stl/HalfDonut-binary.stl',
  'obj/suzanne.obj', '3mf/box.3mf', '3mf/pyramid_vertexcolor.3mf', '3mf/rhombicuboctahedron_color.3mf', '3mf/cylinder.3mf',
].map((path) => ({ name: path.split('/').pop() as string, bytes: new Uint8Array(readFileSync(join(CORPUS, path))) }));

const ITERATIONS = 1000;
const SLOW_MS = 2000;

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INTERESTING = strToU8('0123456789-+.eE \n<>"\'&/=#:nanINF');

type Mutation = (bytes: Uint8Array, random: () => number) => Uint8Array;
const pick = (random: () => number, n: number) => Math.floor(random() * n);

const MUTATIONS: Record<string, Mutation> = {
  flipBits(bytes, random) {
    const out = bytes.slice();
    for (let k = 0, n = 1 + pick(random, 8); k < n; k++) out[pick(random, out.length)] ^= 1 << pick(random, 8);
    return out;
  },
  interestingBytes(bytes, random) {
    const out = bytes.slice();
    for (let k = 0, n = 1 + pick(random, 6); k < n; k++) out[pick(random, out.length)] = INTERESTING[pick(random, INTERESTING.length)];
    return out;
  },
  truncate(bytes, random) {
    return bytes.slice(0, pick(random, bytes.length));
  },
  duplicateChunk(bytes, random) {
    const from = pick(random, bytes.length), length = pick(random, Math.min(400, bytes.length - from));
    const at = pick(random, bytes.length);
    return new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(from, from + length), ...bytes.subarray(at)]);
  },
  deleteChunk(bytes, random) {
    const from = pick(random, bytes.length);
    return new Uint8Array([...bytes.subarray(0, from), ...bytes.subarray(from + 1 + pick(random, 200))]);
  },
  facetCount(bytes, random) {
    const out = bytes.slice();
    if (out.length >= 84) new DataView(out.buffer).setUint32(80, pick(random, 2) ? pick(random, 2 ** 32) : pick(random, 100), true);
    return out;
  },
};

/** For 3MF, also damage the XML inside a well-formed package, where the interesting parsing happens. */
function mutateInside(bytes: Uint8Array, random: () => number, mutation: Mutation): Uint8Array {
  const files = unzipSync(bytes);
  const model = Object.keys(files).find((name) => name.endsWith('.model')) as string;
  const xml = strFromU8(files[model]);
  files[model] = new Uint8Array(mutation(strToU8(xml), random));
  return zipSync(files);
}

test(`fuzz: ${ITERATIONS} seeded mutations of corpus files give a model or a ModelParseError`, () => {
  const random = mulberry32(0x5eed);
  const names = Object.keys(MUTATIONS);
  const outcomes = { parsed: 0, rejected: 0 };
  for (let i = 0; i < ITERATIONS; i++) {
    const source = SOURCES[pick(random, SOURCES.length)];
    const name = names[pick(random, names.length)];
    const inside = source.name.endsWith('.3mf') && random() < 0.7;
    const bytes = inside ? mutateInside(source.bytes, random, MUTATIONS[name]) : MUTATIONS[name](source.bytes, random);
    const label = `iteration ${i}: ${name}${inside ? ' (inside the zip)' : ''} of ${source.name}`;
    const started = performance.now();
    try {
      const model = parseModel(bytes, source.name, { boundaryEdges: true });
      outcomes.parsed++;
      if (model.indices) {
        assert.equal(model.indices.length, model.facts.triangles * 3, label);
        assert.ok(model.indices.every((index) => index * 3 < model.positions.length), `${label}: an index past the vertex table`);
      } else assert.equal(model.positions.length, model.facts.triangles * 9, label);
      assert.ok([model.facts.volume, model.facts.area, ...model.facts.size].every(Number.isFinite), `${label}: non-finite facts`);
    } catch (error) {
      if (!isModelParseError(error)) assert.fail(`${label}: threw ${(error as Error)?.stack ?? String(error)}`);
      assert.ok(error.message.length > 10, label);
      outcomes.rejected++;
    }
    assert.ok(performance.now() - started < SLOW_MS, `${label}: took ${performance.now() - started} ms`);
  }
  assert.ok(outcomes.parsed > 20 && outcomes.rejected > 20, JSON.stringify(outcomes));
});
