// Every file of ../shared/corpus read by our parsers and checked against numbers computed independently:
// - STL and OBJ: three.js's own STLLoader / OBJLoader on the same bytes; triangle count, bounding box and
//   volume (signed tetrahedron sum, written again below in float64) come from their output.
// - 3MF: a deliberately naive reference reader in this file (fflate unzipSync + regular expressions, build
//   item transforms applied by hand), since 3MFLoader needs a browser DOMParser. For box.3mf the expected
//   numbers are also analytic: a 10 × 20 × 30 mm box, 6000 mm³.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import type { BufferGeometry, Mesh } from 'three';
import { parseModel, type ParsedModel } from '../../common/models/index.ts';
import { CORPUS } from '../corpus.ts';


function corpusFiles(kind: string): string[] {
  return readdirSync(join(CORPUS, kind)).filter((name) => !name.startsWith('LICENSE')).map((name) => join(CORPUS, kind, name));
}

function read(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}

interface Reference {
  triangles: number;
  min: number[];
  max: number[];
  volume: number;
}

/** Independent of common/models: plain loops over a triangle soup. */
function referenceFacts(positions: ArrayLike<number>): Reference {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  let volume = 0;
  for (let i = 0; i < positions.length; i += 9) {
    const p = Array.from({ length: 9 }, (_, k) => positions[i + k]);
    for (let k = 0; k < 9; k++) {
      min[k % 3] = Math.min(min[k % 3], p[k]);
      max[k % 3] = Math.max(max[k % 3], p[k]);
    }
    const [ax, ay, az, bx, by, bz, cx, cy, cz] = p;
    volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
  }
  return { triangles: positions.length / 9, min, max, volume: Math.abs(volume) };
}

/** Volume is compared only for closed meshes: for an open one it depends on the reference point. */
function assertMatches(model: ParsedModel, expected: Reference, label: string): void {
  const facts = model.facts;
  assert.equal(facts.triangles, expected.triangles, `${label}: triangles`);
  const scale = Math.max(...expected.max.map((v, k) => v - expected.min[k]));
  for (let k = 0; k < 3; k++) {
    assert.ok(Math.abs(facts.bounds.min[k] - expected.min[k]) <= 1e-5 * scale, `${label}: min[${k}] ${facts.bounds.min[k]} vs ${expected.min[k]}`);
    assert.ok(Math.abs(facts.bounds.max[k] - expected.max[k]) <= 1e-5 * scale, `${label}: max[${k}] ${facts.bounds.max[k]} vs ${expected.max[k]}`);
  }
  if (facts.watertight) assert.ok(Math.abs(facts.volume - expected.volume) <= 1e-4 * Math.max(1e-9, expected.volume) + 1e-9, `${label}: volume ${facts.volume} vs ${expected.volume}`);
}

function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

for (const path of corpusFiles('stl')) {
  test(`STL corpus: ${path.split('/').pop()} matches three's STLLoader`, () => {
    const bytes = read(path);
    const model = parseModel(bytes, path);
    // STLLoader trips on two corpus quirks that our reader handles: a trailing byte after a binary header
    // that begins with "solid" (it then parses as ASCII), and upper-case ENDLOOP/ENDFACET. Give it the
    // bytes it can read: the declared facets only, and lower-cased text.
    const facets = new DataView(bytes.buffer, bytes.byteOffset).getUint32(80, true);
    const binary = bytes.length >= 84 + 50 * facets;
    const input = binary ? buffer(bytes.subarray(0, 84 + 50 * facets)) : new TextDecoder().decode(bytes).toLowerCase();
    const geometry = new STLLoader().parse(input);
    assertMatches(model, referenceFacts(geometry.getAttribute('position').array), path);
    assert.equal(model.format, path.includes('-ascii') ? 'stl-ascii' : 'stl-binary');
    assert.ok(model.facts.watertight, 'the numpy-stl samples are closed');
  });
}

for (const path of corpusFiles('obj')) {
  test(`OBJ corpus: ${path.split('/').pop()} matches three's OBJLoader`, () => {
    const bytes = read(path);
    const model = parseModel(bytes, path);
    const group = new OBJLoader().parse(new TextDecoder().decode(bytes));
    const soups = group.children.map((child) => ((child as Mesh).geometry as BufferGeometry).getAttribute('position').array);
    const joined = new Float32Array(soups.reduce((n, s) => n + s.length, 0));
    soups.reduce((at, s) => (joined.set(s, at), at + s.length), 0);
    assertMatches(model, referenceFacts(joined), path);
  });
}

/** The naive 3MF reader: root model only, meshes and build items with transforms (all the corpus uses). */
function reference3mf(bytes: Uint8Array): Reference {
  const files = unzipSync(bytes);
  const modelName = Object.keys(files).find((name) => name.endsWith('.model')) as string;
  const xml = strFromU8(files[modelName]);
  const meshes = new Map<string, { vertices: number[][]; triangles: number[][] }>();
  for (const object of xml.matchAll(/<object\b[^>]*\bid="(\d+)"[^>]*>([\s\S]*?)<\/object>/g)) {
    const vertices = [...object[2].matchAll(/<vertex\b[^>]*?x="([^"]+)"[^>]*?y="([^"]+)"[^>]*?z="([^"]+)"/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    const triangles = [...object[2].matchAll(/<triangle\b[^>]*?v1="(\d+)"[^>]*?v2="(\d+)"[^>]*?v3="(\d+)"/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    meshes.set(object[1], { vertices, triangles });
  }
  const soup: number[] = [];
  for (const item of xml.matchAll(/<item\b([^>]*)>/g)) {
    const id = /objectid="(\d+)"/.exec(item[1])?.[1] as string;
    const m = (/transform="([^"]+)"/.exec(item[1])?.[1] ?? '1 0 0 0 1 0 0 0 1 0 0 0').trim().split(/\s+/).map(Number);
    const mesh = meshes.get(id) as { vertices: number[][]; triangles: number[][] };
    for (const triangle of mesh.triangles) {
      for (const index of triangle) {
        const [x, y, z] = mesh.vertices[index];
        soup.push(x * m[0] + y * m[3] + z * m[6] + m[9], x * m[1] + y * m[4] + z * m[7] + m[10], x * m[2] + y * m[5] + z * m[8] + m[11]);
      }
    }
  }
  return referenceFacts(soup);
}

for (const path of corpusFiles('3mf')) {
  const name = path.split('/').pop() as string;
  if (name === 'beam_lattice_pyramid.3mf') continue;
  test(`3MF corpus: ${name} matches a naive reference reader`, () => {
    const bytes = read(path);
    const model = parseModel(bytes, path);
    assert.equal(model.format, '3mf');
    assertMatches(model, reference3mf(bytes), path);
    assert.ok(model.facts.watertight, `${name} is closed`);
    assert.equal(model.facts.unit.declared, 'millimeter');
  });
}

test('3MF corpus: box.3mf is the analytic 10 × 20 × 30 mm box', () => {
  const { facts } = parseModel(read(join(CORPUS, '3mf', 'box.3mf')), 'box.3mf');
  assert.deepEqual(facts.size, [10, 20, 30]);
  assert.equal(facts.volume, 6000);
  assert.equal(facts.area, 2 * (10 * 20 + 20 * 30 + 10 * 30));
  assert.equal(facts.shells, 1);
});

test('3MF corpus: box_prod.3mf (production extension UUIDs, thumbnails) loads like box.3mf moved', () => {
  const { facts } = parseModel(read(join(CORPUS, '3mf', 'box_prod.3mf')), 'box_prod.3mf');
  assert.deepEqual(facts.size, [10, 20, Math.fround(46.92) - Math.fround(16.92)]);
  assert.ok(Math.abs(facts.volume - 6000) < 0.01);
  assert.deepEqual(facts.bounds.min, [35, 33, Math.fround(16.92)]);
});

test('3MF corpus: colours from colour groups, per vertex and per triangle', () => {
  const pyramid = parseModel(read(join(CORPUS, '3mf', 'pyramid_vertexcolor.3mf')), 'p.3mf');
  assert.ok(pyramid.colors);
  // First triangle: p1=0 (#FF0000), p2=1 (#0000FF), p3=2 (#00FF00).
  assert.deepEqual([...pyramid.colors.subarray(0, 12)], [255, 0, 0, 255, 0, 0, 255, 255, 0, 255, 0, 255]);
  const rhombi = parseModel(read(join(CORPUS, '3mf', 'rhombicuboctahedron_color.3mf')), 'r.3mf');
  assert.ok(rhombi.colors);
  assert.deepEqual([...rhombi.colors.subarray(0, 4)], [0, 0, 0xa0, 255]);
  const cylinders = parseModel(read(join(CORPUS, '3mf', 'multiple_cylinders.3mf')), 'm.3mf');
  assert.deepEqual([...(cylinders.colors as Uint8Array).subarray(0, 4)], [0xc0, 0xc0, 0xc0, 255], 'object-level basematerial');
  assert.equal(cylinders.facts.shells, 6, 'six build items');
});

test('3MF corpus: the beam lattice is drawn as closed struts within the lattice bounds', () => {
  const bytes = read(join(CORPUS, '3mf', 'beam_lattice_pyramid.3mf'));
  const model = parseModel(bytes, 'beam.3mf');
  const xml = strFromU8(unzipSync(bytes)['3D/3dmodel.model']);
  const beams = [...xml.matchAll(/<b:beam /g)].length;
  assert.equal(model.facts.triangles, beams * 32);
  assert.equal(model.facts.openEdges, 0);
  assert.equal(model.facts.nonManifoldEdges, 0, 'struts meeting at a node are closed each, not one non-manifold mesh');
  assert.equal(model.facts.watertight, true);
  assert.equal(model.facts.shells, 1, 'the struts join at their nodes');
  assert.ok(model.facts.warnings.some((w) => w.includes('beam lattice')));
  const xs = [...xml.matchAll(/<vertex x="([^"]+)"/g)].map((m) => Number(m[1]));
  assert.ok(model.facts.bounds.min[0] >= Math.min(...xs) - 5 && model.facts.bounds.max[0] <= Math.max(...xs) + 5);
});

test('STL corpus quirks: binary headers that begin with "solid", a space before "solid", trailing bytes, empty header', () => {
  for (const name of ['Cube-binary.stl', 'HalfDonut-binary.stl', 'rear_case-binary.stl']) {
    const bytes = read(join(CORPUS, 'stl', name));
    assert.match(new TextDecoder().decode(bytes.subarray(0, 6)), /^\s*solid/);
    assert.equal(parseModel(bytes, name).format, 'stl-binary');
  }
  const ascii = parseModel(read(join(CORPUS, 'stl', 'HalfDonut-ascii.stl')), 'HalfDonut-ascii.stl');
  assert.equal(ascii.format, 'stl-ascii', 'upper-case ENDLOOP/ENDFACET/ENDSOLID are read');
  assert.equal(ascii.facts.triangles, 288);
  const donut = parseModel(read(join(CORPUS, 'stl', 'HalfDonut-binary.stl')), 'HalfDonut-binary.stl');
  assert.ok(donut.facts.warnings.some((w) => w.includes('1 trailing byte after the last facet was ignored')));
  const empty = parseModel(read(join(CORPUS, 'stl', 'StarWithEmptyHeader-binary.stl')), 'star.stl');
  assert.equal(empty.facts.triangles, 68);
});

test('OBJ corpus quirks: quads are fanned (suzanne), texture coordinates ignored (spot), open meshes reported', () => {
  const suzanne = parseModel(read(join(CORPUS, 'obj', 'suzanne.obj')), 'suzanne.obj');
  const text = readFileSync(join(CORPUS, 'obj', 'suzanne.obj'), 'utf8');
  const expected = [...text.matchAll(/^f (.+)$/gm)].reduce((n, m) => n + m[1].trim().split(/\s+/).length - 2, 0);
  assert.equal(suzanne.facts.triangles, expected);
  assert.equal(suzanne.facts.watertight, false);
  assert.ok(suzanne.facts.openEdges > 0);
  const bunny = parseModel(read(join(CORPUS, 'obj', 'stanford-bunny.obj')), 'bunny.obj', { boundaryEdges: true });
  assert.equal(bunny.boundaryEdges?.length, bunny.facts.openEdges * 6);
  assert.equal(bunny.facts.unit.guess?.unit, 'meter', 'the bunny is 0.15 units across: metres');
});
