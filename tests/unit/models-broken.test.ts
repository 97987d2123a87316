// Generated broken and edge-case files (scripts/generate-models.ts builds the valid ones): each must give a
// ModelParseError with the right code and a message that says where, or a result with the right warning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isModelParseError, parseModel, type ModelErrorCode, type ParsedModel } from '../../common/models/index.ts';
import { zlibInflateRaw } from '../../electron/services/models/zlib-inflate.ts';
import { CORPUS } from '../corpus.ts';
import { asciiStl, binaryStl, CORE_NS, meshXml, obj, package3mf, PRODUCTION_NS, threeMf, torus, type Mesh } from '../../scripts/generate-models.ts';

const cube: Mesh = {
  vertices: new Float32Array([0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0, 0, 0, 10, 10, 0, 10, 10, 10, 10, 0, 10, 10]),
  triangles: new Uint32Array([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]),
};

function fails(bytes: Uint8Array, name: string, code: ModelErrorCode, message?: RegExp, options = {}): void {
  assert.throws(
    () => parseModel(bytes, name, options),
    (error: unknown) => {
      assert.ok(isModelParseError(error), `expected a ModelParseError, got ${String(error)}`);
      assert.equal(error.code, code, error.message);
      if (message) assert.match(error.message, message);
      return true;
    },
  );
}

const text = (s: string) => strToU8(s);
const model3mf = (body: string, unit = 'millimeter', extra = '') => `<?xml version="1.0" encoding="UTF-8"?>\n<model unit="${unit}" xmlns="${CORE_NS}" xmlns:p="${PRODUCTION_NS}"${extra}>${body}</model>`;

test('a generated torus is read identically from all four formats, closed, with the analytic volume', () => {
  const mesh = torus(120, 48);
  const results: ParsedModel[] = [parseModel(binaryStl(mesh), 't.stl'), parseModel(asciiStl(mesh), 't.stl'), parseModel(obj(mesh), 't.obj'), parseModel(threeMf(mesh), 't.3mf')];
  const polygonVolume = results[0].facts.volume;
  // A polygonal torus is a little smaller than the smooth one (2π²Rr²); within 1% at this resolution.
  assert.ok(Math.abs(polygonVolume - 2 * Math.PI ** 2 * 40 * 144) / polygonVolume < 0.01);
  for (const model of results) {
    assert.equal(model.facts.triangles, 120 * 48 * 2);
    assert.ok(model.facts.watertight, model.format);
    assert.equal(model.facts.shells, 1);
    assert.equal(model.facts.inconsistentEdges, 0);
    assert.ok(Math.abs(model.facts.volume - polygonVolume) / polygonVolume < 1e-5, model.format);
  }
});

test('binary STL: truncated, counts that lie up or down, NaN and Infinity coordinates with their offset', () => {
  const good = binaryStl(cube);
  fails(good.subarray(0, good.length - 7), 'c.stl', 'TRUNCATED', /inside facet 12/);
  const flat = binaryStl({ vertices: new Float32Array(9), triangles: new Uint32Array(Array.from({ length: 36 }, (_, k) => k % 3)) });
  fails(flat, 'flat.stl', 'EMPTY', /None of its 12 triangles has any area/);
  // Cube-binary's header begins with "solid": truncated, or with a count that lies, it is still binary.
  const solid = readFileSync(join(CORPUS, 'stl', 'Cube-binary.stl'));
  assert.match(new TextDecoder().decode(solid.subarray(0, 8)), /^\s*solid/);
  fails(solid.subarray(0, solid.length - 30), 'c.stl', 'TRUNCATED', /inside facet 12/);
  const solidLies = new Uint8Array(solid);
  new DataView(solidLies.buffer).setUint32(80, 1_000_000, true);
  fails(solidLies, 'c.stl', 'BAD_COUNT', /declares 1,000,000 facets but the file holds 12/);
  fails(good.subarray(0, 60), 'c.stl', 'TRUNCATED', /84-byte header/);
  const liesUp = good.slice();
  new DataView(liesUp.buffer).setUint32(80, 13, true);
  fails(liesUp, 'c.stl', 'BAD_COUNT', /declares 13 facets but the file holds 12/);
  const liesDown = good.slice();
  new DataView(liesDown.buffer).setUint32(80, 10, true);
  fails(liesDown, 'c.stl', 'BAD_COUNT', /declares 10 facets but the file holds 12/);
  for (const bad of [NaN, Infinity]) {
    const poisoned = good.slice();
    new DataView(poisoned.buffer).setFloat32(84 + 50 * 5 + 12 + 16, bad, true);
    fails(poisoned, 'c.stl', 'NAN_COORDINATE', new RegExp(`Triangle 6, corner 2, y \\(byte offset ${84 + 250 + 12 + 16}\\)`));
  }
});

test('OBJ and 3MF without colours come as a vertex table with indices that draw the same triangles as the soup', () => {
  const mesh = torus(30, 12);
  const soup = parseModel(binaryStl(mesh), 't.stl').positions;
  for (const [bytes, name] of [[obj(mesh), 't.obj'], [threeMf(mesh), 't.3mf']] as const) {
    const model = parseModel(bytes, name);
    assert.ok(model.indices, `${name} is indexed`);
    assert.equal(model.positions.length, mesh.vertices.length, `${name}: one point per vertex, no soup`);
    const drawn = new Float32Array(model.indices.length * 3);
    model.indices.forEach((index, corner) => drawn.set(model.positions.subarray(index * 3, index * 3 + 3), corner * 3));
    for (let k = 0; k < soup.length; k++) assert.ok(Math.abs(drawn[k] - soup[k]) < 1e-4, `${name}: float ${k}`);
  }
  // Per-corner colours need a soup.
  const colored = parseModel(readFileSync(join(CORPUS, '3mf', 'rhombicuboctahedron_color.3mf')), 'c.3mf');
  assert.equal(colored.indices, undefined);
  assert.equal(colored.positions.length, colored.facts.triangles * 9);
});

test('binary STL read in place (bytes handed over): the same positions and facts, the same errors, and a misaligned view still works', () => {
  // 19,200 facets: more than two of the slices the reader measures as it goes.
  const file = binaryStl(torus(200, 48));
  const copied = parseModel(file, 't.stl');
  const owned = file.slice();
  const inPlace = parseModel(owned, 't.stl', { bytesOwned: true });
  assert.equal(inPlace.positions.buffer, owned.buffer, 'the positions are the file\'s own bytes');
  assert.deepEqual(inPlace.positions, copied.positions);
  assert.deepEqual(inPlace.facts, copied.facts);
  // A view at an odd offset cannot hold a Float32Array: it is read into a fresh array instead.
  const shifted = new Uint8Array(file.length + 1);
  shifted.set(file, 1);
  const misaligned = parseModel(shifted.subarray(1), 't.stl', { bytesOwned: true });
  assert.notEqual(misaligned.positions.buffer, shifted.buffer);
  assert.deepEqual(misaligned.facts, copied.facts);
  const poisoned = file.slice();
  new DataView(poisoned.buffer).setFloat32(84 + 50 * 9000 + 12 + 8, NaN, true);
  fails(poisoned, 't.stl', 'NAN_COORDINATE', new RegExp(`Triangle 9001, corner 1, z \\(byte offset ${84 + 50 * 9000 + 12 + 8}\\)`), { bytesOwned: true });
});

test('ASCII STL: truncated inside a facet, nan, a quad, garbage, all with line numbers', () => {
  const good = new TextDecoder().decode(asciiStl(cube));
  fails(text(good.slice(0, good.indexOf('endloop', 400))), 'c.stl', 'TRUNCATED', /line \d+/);
  fails(text(good.replace(/vertex \S+/, 'vertex nan')), 'c.stl', 'NAN_COORDINATE', /line 4/);
  fails(text(good.replace(/vertex \S+/, 'vertex 1e999')), 'c.stl', 'NAN_COORDINATE', /line 4/);
  fails(text(good.replace('endloop', 'vertex 1 2 3\n    endloop')), 'c.stl', 'BAD_SYNTAX', /only triangles/);
  fails(text(good.replace('outer loop', 'outer lop')), 'c.stl', 'BAD_SYNTAX', /line 3/);
  const noEnd = parseModel(text(good.replace(/endsolid.*\n$/, '')), 'c.stl');
  assert.ok(noEnd.facts.warnings.some((w) => w.includes('endsolid')));
});

test('ASCII STL: tabs, CRLF, signs, exponents and a broken-up facet read the same positions as the usual shape', () => {
  const good = new TextDecoder().decode(asciiStl(cube));
  const usual = parseModel(text(good), 'c.stl');
  const variants = [
    good.replace(/\n/g, '\r\n').replace(/ {2,}/g, '\t'),
    good.replace(/vertex (\S+)/g, (_, x: string) => `vertex ${Number(x).toExponential()}`).replace(/ 0 /g, ' +0 '),
    // Words split over lines and a facet normal the exporter left as text: unusual, still valid.
    good.replace('outer loop', 'outer\n\n loop').replace(/facet normal \S+/, 'facet normal nan'),
  ];
  for (const variant of variants) {
    const read = parseModel(text(variant), 'c.stl');
    assert.deepEqual([...read.positions], [...usual.positions]);
    assert.equal(read.facts.volume, usual.facts.volume);
  }
});

test('ASCII STL: keywords in any case; one letter wrong, one too many, or cut off at the end of the file is an error', () => {
  const good = new TextDecoder().decode(asciiStl(cube));
  const shouting = good.replace(/endfacet/g, 'ENDFACET').replace(/facet normal/g, 'Facet NORMAL').replace(/outer loop/g, 'OUTER Loop').replace(/vertex/g, 'VERTEX').replace(/endloop/g, 'EndLoop');
  assert.equal(parseModel(text(shouting), 'c.stl').facts.triangles, 12);
  fails(text(good.replace('endfacet', 'endfacex')), 'c.stl', 'BAD_SYNTAX', /Expected "endfacet"/);
  fails(text(good.replace('vertex', 'vertexx')), 'c.stl', 'BAD_SYNTAX', /Expected "vertex"/);
  fails(text(good.replace('normal', 'norma1')), 'c.stl', 'BAD_SYNTAX', /Expected "normal"/);
  // Keywords with fewer than 8 bytes after them are compared byte by byte.
  fails(text(good.slice(0, good.lastIndexOf('endloop') + 6)), 'c.stl', 'BAD_SYNTAX', /Expected "endloop"/);
  fails(text(good.slice(0, good.lastIndexOf('endloop') + 7)), 'c.stl', 'TRUNCATED', /"endfacet" was expected/);
  const endsOnFacet = parseModel(text(good.slice(0, good.lastIndexOf('endfacet') + 8)), 'c.stl');
  assert.equal(endsOnFacet.facts.triangles, 12);
});

test('OBJ: indices out of range (past the end, 0, too negative), nan, negative indices and polygons', () => {
  fails(text('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n'), 'x.obj', 'INDEX_OUT_OF_RANGE', /Line 4 uses vertex 4, but the file has only 3 vertices\./);
  fails(text('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n'), 'x.obj', 'INDEX_OUT_OF_RANGE', /Line 4 uses vertex 0, but OBJ counts vertices from 1/);
  fails(text('v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n'), 'x.obj', 'INDEX_OUT_OF_RANGE', /before the first vertex/);
  fails(text('v 0 0 0\nv nan 0 0\n'), 'x.obj', 'NAN_COORDINATE', /line 2/);
  fails(text('v 0 0\n'), 'x.obj', 'BAD_SYNTAX', /three coordinates/);
  fails(text('# only a comment\nv 0 0 0\n'), 'x.obj', 'EMPTY');
  const square = parseModel(text('o sq\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nusemtl m\ns off\ng g1\nf -4/1/1 -3/1/1 -2/1/1 -1/1/1\nf 1//1 2//1 3//1\n'), 'sq.obj');
  assert.equal(square.facts.triangles, 3);
  assert.equal(square.facts.area, 1.5);
  const coloured = parseModel(text('v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\n'), 'c.obj');
  assert.deepEqual([...(coloured.colors as Uint8Array)], [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
});

/** A copy of a 3MF whose central directory declares another inflated size for its .model part. */
function withModelSize(bytes: Uint8Array, size: (declared: number) => number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  for (let at = copy.length - 22; at > 0; at--) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    if (new TextDecoder().decode(copy.subarray(at + 46, at + 46 + nameLength)).endsWith('.model')) view.setUint32(at + 24, size(view.getUint32(at + 24, true)), true);
  }
  return copy;
}

test('3MF: zip bombs (lying sizes, impossible ratios, over the limit), DOCTYPE entities, bad indices, missing parts', () => {
  const good = threeMf(torus(60, 30));
  fails(good, 'b.3mf', 'ZIP_BOMB', /over the 1000-byte limit/, { maxUnzippedBytes: 1000 });
  // Shrink the model part's declared size in the central directory: inflating must stop, not grow.
  const lying = withModelSize(good, () => 4096);
  fails(lying, 'b.3mf', 'ZIP_BOMB', /more than the 4096 bytes its header declares/);
  fails(withModelSize(good, () => 0xfff00000), 'b.3mf', 'ZIP_BOMB');
  // 64 MB of spaces: within what deflate can do (about 1000:1) and the size limit, but no model compresses so.
  const padded = model3mf('<resources/><build/>').replace('<model', `${' '.repeat(64 * 2 ** 20)}<model`);
  fails(package3mf({ '3D/3dmodel.model': padded }), 'p.3mf', 'ZIP_BOMB', /would inflate \d+ times \(to 64 MB\)/);
  const laughs = model3mf('<resources/><build/>').replace('<model', '<!DOCTYPE model [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<model');
  fails(package3mf({ '3D/3dmodel.model': laughs }), 'e.3mf', 'XML_ENTITY', /DOCTYPE/);
  const badIndex = model3mf(`<resources><object id="1">${meshXml(cube).replace('v3="1"', 'v3="99"')}</object></resources><build><item objectid="1"/></build>`);
  fails(package3mf({ '3D/3dmodel.model': badIndex }), 'i.3mf', 'INDEX_OUT_OF_RANGE', /v3="99" but the mesh has 8 vertices in 3D\/3dmodel.model at line \d+/);
  // Written on one line, as many 3MF writers do: the column says where on it.
  const oneLine = badIndex.replace(/\n\s*/g, ' ');
  assert.throws(() => parseModel(package3mf({ '3D/3dmodel.model': oneLine }), 'i.3mf'), (error: unknown) => {
    assert.ok(isModelParseError(error));
    const column = oneLine.indexOf('v3="99"');
    assert.equal(error.where.line, 1);
    assert.ok(error.where.column !== undefined && Math.abs(error.where.column - column) < 80, `column ${error.where.column} near ${column}`);
    assert.equal(error.where.offset, (error.where.column ?? 0) - 1);
    assert.match(error.message, new RegExp(`at line 1, column ${error.where.column?.toLocaleString('en-US')}\\.$`));
    return true;
  });
  const missing = model3mf('<resources><object id="1"><components><component objectid="5" p:path="/3D/gone.model"/></components></object></resources><build><item objectid="1"/></build>');
  fails(package3mf({ '3D/3dmodel.model': missing }), 'm.3mf', 'MISSING_PART', /gone.model/);
  const cycle = model3mf('<resources><object id="1"><components><component objectid="2"/></components></object><object id="2"><components><component objectid="1"/></components></object></resources><build><item objectid="1"/></build>');
  fails(package3mf({ '3D/3dmodel.model': cycle }), 'c.3mf', 'BAD_XML', /cycle/);
  fails(zipSync({ 'readme.txt': text('hello') }), 'z.3mf', 'MISSING_PART');
  fails(good.subarray(0, good.length - 30), 't.3mf', 'BAD_ZIP');
  fails(package3mf({ '3D/3dmodel.model': model3mf('<resources><object id="1"><mesh><vertices>').replace('</model>', '<vertex x="1" y="2"') }), 't.3mf', 'TRUNCATED', /ends inside a tag/);
});

test('3MF: production extension parts, components with mirror transforms, units, per-triangle colours', () => {
  const part = model3mf(`<resources><object id="7">${meshXml(cube)}</object></resources><build/>`, 'inch');
  const root = model3mf(
    '<resources><object id="1"><components>' +
      '<component objectid="7" p:path="/3D/part.model"/>' +
      '<component objectid="7" p:path="/3D/part.model" transform="-1 0 0 0 1 0 0 0 1 -5 0 0"/>' +
      '</components></object></resources><build><item objectid="1" transform="1 0 0 0 1 0 0 0 1 0 0 2"/></build>',
    'inch',
  );
  const model = parseModel(package3mf({ '3D/3dmodel.model': root, '3D/part.model': part }), 'prod.3mf');
  assert.equal(model.facts.triangles, 24);
  assert.equal(model.facts.unit.declared, 'inch');
  assert.equal(model.facts.shells, 2);
  assert.ok(model.facts.watertight);
  assert.equal(model.facts.inconsistentEdges, 0, 'a mirrored instance keeps its triangles facing out');
  assert.ok(Math.abs(model.facts.volume / (2 * 1000 * 25.4 ** 3) - 1) < 1e-6);
  assert.deepEqual(model.facts.bounds.min.map((v) => Math.round(v * 1000) / 1000), [-15 * 25.4, 0, 2 * 25.4]);

  const colours = model3mf(
    '<resources><basematerials id="3"><base name="red" displaycolor="#FF0000"/><base name="blue" displaycolor="#0000FFFF"/></basematerials>' +
      `<object id="1" pid="3" pindex="1">${meshXml(cube).replace('<triangle v1="0" v2="2" v3="1"', '<triangle v1="0" v2="2" v3="1" pid="3" p1="0"')}</object></resources><build><item objectid="1"/></build>`,
    'micron',
  );
  const painted = parseModel(package3mf({ '3D/3dmodel.model': colours }), 'c.3mf');
  assert.deepEqual([...(painted.colors as Uint8Array).subarray(0, 4)], [255, 0, 0, 255]);
  assert.deepEqual([...(painted.colors as Uint8Array).subarray(12, 16)], [0, 0, 255, 255], 'object default pid/pindex');
  assert.ok(Math.abs(painted.facts.size[0] - 0.01) < 1e-9, '10 microns');
  // A unit the specification does not know breaks it: the model is still read, in millimetres, and says so.
  const furlongs = parseModel(package3mf({ '3D/3dmodel.model': model3mf(`<resources><object id="1">${meshXml(cube)}</object></resources><build><item objectid="1"/></build>`, 'furlong') }), 'u.3mf');
  assert.deepEqual(furlongs.facts.size, [10, 10, 10]);
  assert.deepEqual(furlongs.facts.conformance.violations.map((v) => [v.rule, v.message]), [['core.unit', 'The model\'s unit is "furlong"; it is read as millimetres.']]);
});

test('detection: by content and size, with the extension only as a hint; wrong extensions said clearly', () => {
  fails(new Uint8Array(0), 'empty.stl', 'EMPTY', /empty/);
  fails(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0]), 'photo.stl', 'NOT_A_MODEL', /photo.stl is a PNG image/);
  fails(text('hello world, this is not a model'), 'notes.txt', 'NOT_A_MODEL', /notes.txt is not a 3D model this app reads/);
  fails(text('hello world, this is not a model'), 'garbage.obj', 'NOT_A_MODEL', /garbage.obj is named .obj but holds no OBJ vertex \(v\) or face \(f\) lines/);
  const misnamed = parseModel(binaryStl(cube), 'cube.obj');
  assert.equal(misnamed.format, 'stl-binary');
  assert.match(misnamed.facts.warnings[0], /cube.obj is named .obj but contains a binary STL/);
  assert.equal(parseModel(threeMf(cube), 'cube.stl').format, '3mf');
  const solidHeader = binaryStl(cube, 'solid but binary, with facet words in the header');
  assert.equal(parseModel(solidHeader, 'h.stl').format, 'stl-binary');
});

test('limits and progress: a triangle cap, and progress reported up to 1', () => {
  const mesh = torus(300, 300);
  fails(binaryStl(mesh), 'big.stl', 'TOO_LARGE', /more than the 1,000/, { maxTriangles: 1000 });
  fails(obj(mesh), 'big.obj', 'TOO_LARGE', undefined, { maxTriangles: 1000 });
  fails(asciiStl(torus(10, 10)), 'big.stl', 'TOO_LARGE', undefined, { maxTriangles: 100 });
  fails(threeMf(mesh), 'big.3mf', 'TOO_LARGE', undefined, { maxTriangles: 1000 });
  const seen: number[] = [];
  parseModel(binaryStl(torus(400, 400)), 'p.stl', { onProgress: (f) => seen.push(f) });
  assert.ok(seen.length >= 2 && seen.at(-1) === 1 && seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1])));
});

test('unit guesses: metres, inches and microns are suggested, never applied', () => {
  const scaled = (factor: number): Mesh => ({ vertices: cube.vertices.map((v) => v * factor), triangles: cube.triangles });
  const metres = parseModel(binaryStl(scaled(0.005)), 'm.stl').facts;
  assert.equal(metres.unit.guess?.unit, 'meter');
  assert.deepEqual(metres.size.map((v) => Math.round(v * 1000) / 1000), [0.05, 0.05, 0.05], 'sizes stay as read');
  assert.equal(parseModel(binaryStl(scaled(0.3)), 'i.stl').facts.unit.guess?.unit, 'inch');
  assert.equal(parseModel(binaryStl(scaled(500)), 'u.stl').facts.unit.guess?.unit, 'micron');
  assert.equal(parseModel(binaryStl(cube), 'ok.stl').facts.unit.guess, undefined);
});

test('topology: open edges, non-manifold edges, flipped triangles, degenerate triangles, shells', () => {
  const open: Mesh = { vertices: cube.vertices, triangles: cube.triangles.slice(0, 33) };
  const facts = parseModel(binaryStl(open), 'o.stl', { boundaryEdges: true });
  assert.equal(facts.facts.openEdges, 3);
  assert.equal(facts.boundaryEdges?.length, 18);
  assert.equal(facts.facts.watertight, false);
  const flipped = cube.triangles.slice();
  flipped.set([0, 1, 2], 0);
  assert.equal(parseModel(binaryStl({ vertices: cube.vertices, triangles: flipped }), 'f.stl').facts.inconsistentEdges, 3);
  const fin = new Uint32Array([...cube.triangles, 0, 2, 5]);
  const finFacts = parseModel(binaryStl({ vertices: cube.vertices, triangles: fin }), 'n.stl').facts;
  assert.ok(finFacts.nonManifoldEdges >= 1);
  const degenerate = new Uint32Array([...cube.triangles, 0, 0, 1]);
  assert.equal(parseModel(binaryStl({ vertices: cube.vertices, triangles: degenerate }), 'd.stl').facts.degenerateTriangles, 1);
  const two = parseModel(obj(torus(12, 6)), 'a.obj').facts.shells + parseModel(binaryStl(cube), 'b.stl').facts.shells;
  assert.equal(two, 2);
});

test('topology: a vertex table that repeats points is welded, whether every point or one among thousands repeats', () => {
  // Each face with its own corners, as some exporters write: 36 vertices, 8 places.
  const split: Mesh = { vertices: new Float32Array(cube.triangles.length * 3), triangles: Uint32Array.from(cube.triangles, (_, i) => i) };
  cube.triangles.forEach((v, i) => split.vertices.set(cube.vertices.subarray(v * 3, v * 3 + 3), i * 3));
  const facts = parseModel(obj(split), 'split.obj').facts;
  assert.deepEqual([facts.watertight, facts.shells, facts.openEdges], [true, 1, 0]);
  // One repeat among 20K distinct points: the table's hash bitset must not take it for a collision.
  const ring = torus(200, 100);
  const vertices = new Float32Array(ring.vertices.length + 3);
  vertices.set(ring.vertices);
  vertices.set(ring.vertices.subarray(0, 3), ring.vertices.length);
  const triangles = ring.triangles.slice();
  triangles[triangles.indexOf(0)] = ring.vertices.length / 3;
  const repeated = parseModel(obj({ vertices, triangles }), 'repeated.obj').facts;
  assert.deepEqual([repeated.watertight, repeated.shells, repeated.openEdges], [true, 1, 0]);
  // A vertex no face uses, far away, must not coarsen the weld until the open top of a box closes up.
  const open = new TextDecoder().decode(obj({ vertices: cube.vertices, triangles: cube.triangles.slice(6) }));
  for (const stray of ['', 'v 100000000 0 0\n']) {
    const facts = parseModel(text(open + stray), 'stray.obj').facts;
    assert.deepEqual([facts.watertight, facts.openEdges], [false, 4], `with "${stray.trim()}"`);
  }
});

test('topology: separate triangles, unused vertices and collapsed triangles give the right shells', () => {
  // 500 unrelated triangles: every corner is its own point, far more than a closed mesh's estimate.
  const count = 500;
  const vertices = new Float32Array(count * 9);
  for (let i = 0; i < count * 9; i++) vertices[i] = (i % 9) ** 2 + Math.floor(i / 9) * 100;
  const triangles = Uint32Array.from({ length: count * 3 }, (_, i) => i);
  const scattered = parseModel(binaryStl({ vertices, triangles }), 's.stl').facts;
  assert.equal(scattered.shells, count);
  assert.equal(scattered.openEdges, count * 3);
  // The same triangles twice: the weld's table has grown several times before the copies come, and must
  // still find every earlier point (each edge then used twice, the same way round).
  const twice = Uint32Array.from({ length: count * 6 }, (_, i) => i % (count * 3));
  const doubled = parseModel(binaryStl({ vertices, triangles: twice }), 'd.stl').facts;
  assert.deepEqual([doubled.shells, doubled.openEdges, doubled.inconsistentEdges], [count, 0, count * 3]);
  // A vertex no face uses is not a shell; a triangle collapsed to a point is.
  const text = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nv 9 9 9\nf 1 2 3\nf 5 5 5\n';
  const facts = parseModel(new TextEncoder().encode(text), 'loose.obj').facts;
  assert.equal(facts.shells, 2);
  assert.equal(facts.degenerateTriangles, 1);
});

test('3MF through zlib (the CLI\'s inflater): the same models as the built-in inflater, the same refusals', () => {
  const inflateRaw = zlibInflateRaw;
  for (const name of readdirSync(join(CORPUS, '3mf')).filter((file) => file.endsWith('.3mf'))) {
    const bytes = readFileSync(join(CORPUS, '3mf', name));
    assert.deepEqual(parseModel(bytes, name, { inflateRaw }).facts, parseModel(bytes, name).facts, name);
  }
  const good = threeMf(torus(60, 30));
  fails(withModelSize(good, () => 4096), 'b.3mf', 'ZIP_BOMB', /more than the 4096 bytes its header declares/, { inflateRaw });
  fails(withModelSize(good, (size) => size + 10), 'l.3mf', 'TRUNCATED', /fewer than/, { inflateRaw });
  const corrupt = good.slice();
  corrupt.fill(0xff, 200, 260);
  assert.throws(() => parseModel(corrupt, 'c.3mf', { inflateRaw }), (error: unknown) => isModelParseError(error) && ['BAD_ZIP', 'BAD_XML', 'TRUNCATED'].includes(error.code));
});

test('OBJ: a vertex listed twice at one position is one point, so a mesh using both copies is still closed', () => {
  const tetra = (fourth: string) => new TextEncoder().encode(`v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 0 0\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf ${fourth} 4 3\n`);
  const shared = parseModel(tetra('1'), 'a.obj').facts;
  const copied = parseModel(tetra('5'), 'b.obj').facts;
  assert.equal(shared.watertight, true);
  assert.deepEqual({ ...copied, warnings: [] }, { ...shared, warnings: [] });
});

test('3MF beam lattice: struts meeting end to end stay closed each; the mesh\'s own triangles are still checked', () => {
  // Three collinear beams through nodes 1 and 2 (their rings coincide there), one the other way round,
  // and one triangle of the mesh itself with three open edges.
  const lattice = (triangles: string) => package3mf({
    '3D/3dmodel.model': `<?xml version="1.0"?><model unit="millimeter" xmlns="${CORE_NS}" xmlns:b="http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02"><resources><object id="1" type="model"><mesh><vertices>
      <vertex x="0" y="0" z="0" /><vertex x="0" y="0" z="10" /><vertex x="0" y="0" z="20" /><vertex x="0" y="0" z="30" /><vertex x="40" y="0" z="0" /><vertex x="40" y="5" z="0" />
      </vertices><triangles>${triangles}</triangles><b:beamlattice radius="1" minlength="0.0001"><b:beams>
      <b:beam v1="0" v2="1" /><b:beam v1="1" v2="2" /><b:beam v1="3" v2="2" />
      </b:beams></b:beamlattice></mesh></object></resources><build><item objectid="1" /></build></model>`,
  });
  const struts = parseModel(lattice(''), 'struts.3mf');
  assert.equal(struts.facts.triangles, 3 * 32);
  assert.deepEqual([struts.facts.openEdges, struts.facts.nonManifoldEdges, struts.facts.watertight, struts.facts.shells], [0, 0, true, 1]);
  const withSheet = parseModel(lattice('<triangle v1="0" v2="4" v3="5" />'), 'sheet.3mf');
  assert.equal(withSheet.facts.openEdges, 3, 'the mesh triangle\'s edges are counted');
  assert.equal(withSheet.facts.watertight, false);
});
