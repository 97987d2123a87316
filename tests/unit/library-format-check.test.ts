// The client's cheap structural check before an upload (the sandbox has its own): every
// corpus file passes as its own format; broken and renamed files get a reason a user can act on.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseModel } from '../../common/models/index.ts';
import { checkModelFile } from '../../electron/services/library/format-check.ts';
import { CORPUS } from '../corpus.ts';

const check = (name: string, bytes: Uint8Array) => checkModelFile(name, bytes.length, async (at, length) => bytes.subarray(at, at + length));
const read = (...parts: string[]) => fs.readFileSync(path.join(CORPUS, ...parts));

describe('format check', () => {
  for (const dir of ['stl', 'obj', '3mf']) {
    it(`accepts every ${dir} file of the corpus`, async () => {
      for (const file of fs.readdirSync(path.join(CORPUS, dir)).filter((f) => f.endsWith(`.${dir}`))) {
        const result = await check(file, read(dir, file));
        assert.equal(result.ok, true, `${file}: ${JSON.stringify(result)}`);
        if (result.ok) assert.equal(result.format, dir);
      }
    });
  }

  it('tells binary from ASCII STL by size, not by the word "solid"', async () => {
    assert.deepEqual(await check('c.stl', read('stl', 'Cube-binary.stl')), { ok: true, format: 'stl', variant: 'binary' });
    assert.deepEqual(await check('c.stl', read('stl', 'Cube-ascii.stl')), { ok: true, format: 'stl', variant: 'ascii' });
    // one trailing byte, as real files carry
    assert.equal((await check('h.stl', read('stl', 'HalfDonut-binary.stl'))).ok, true);
  });

  it('agrees with the parser on trailing bytes: some are accepted, a whole facet more is a count that lies', async () => {
    const moon = read('stl', 'Moon-binary.stl');
    const trailing = Buffer.concat([moon, Buffer.alloc(73, 0x20)]);
    assert.deepEqual(await check('m.stl', trailing), { ok: true, format: 'stl', variant: 'binary' });
    assert.match(parseModel(trailing, 'm.stl').facts.warnings.join(' '), /73 trailing bytes/);
    const lying = Buffer.concat([moon, moon.subarray(84, 134)]);
    const result = await check('m.stl', lying);
    assert.equal(result.ok, false);
    assert.throws(() => parseModel(lying, 'm.stl'), (error: Error) => error.message === `${result.ok ? '' : result.reason}.`);
  });

  it('explains what is wrong', async () => {
    const rear = read('stl', 'rear_case-binary.stl');
    const reason = async (name: string, bytes: Uint8Array) => {
      const result = await check(name, bytes);
      assert.equal(result.ok, false);
      return result.ok ? '' : result.reason;
    };
    assert.match(await reason('t.stl', rear.subarray(0, 50_000)), /^The file is truncated: the header declares 18,808 facets \(940,484 bytes\) but it ends after 50,000 bytes, inside facet 999$/);
    assert.match(await reason('a.stl', read('stl', 'Moon-ascii.stl').subarray(0, 3000)), /no "endsolid"/);
    assert.match(await reason('x.stl', new Uint8Array(20)), /too short/);
    assert.match(await reason('cow.stl', read('obj', 'cow.obj')), /named \.stl but its content is OBJ/);
    assert.match(await reason('moon.obj', read('stl', 'Moon-binary.stl')), /named \.obj but its content is STL/);
    assert.match(await reason('box.stl', read('3mf', 'box.3mf')), /content is 3MF/);
    // Other kinds of file are named, not read as a broken model ("a binary STL with no triangles").
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200)]);
    assert.match(await reason('photo.stl', png), /^This is a PNG image, not an STL model\./);
    assert.match(await reason('part.obj', Buffer.from('ISO-10303-21;\nHEADER;\n')), /^This is a STEP CAD file, not an OBJ model\./);
    assert.match(await reason('v.obj', Buffer.from('v 1 2 3\nv 1 2 4\n')), /no face/);
    assert.match(await reason('f.obj', Buffer.from('# only a comment\n')), /no vertex/);
    assert.match(await reason('z.3mf', read('3mf', 'box.3mf').subarray(0, 400)), /truncated/);
    assert.match(await reason('e.stl', new Uint8Array()), /empty/);
    assert.match(await reason('notes.txt', Buffer.from('hi')), /\.stl, \.obj or \.3mf/);
  });
});
